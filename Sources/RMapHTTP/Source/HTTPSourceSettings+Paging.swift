import RMap

extension HTTPSourceSettings {
    /// The paging keys besides `page_size` and `paginate`.
    static let pagingKeys = ["size_param", "method", "body"]

    /// The parameter the page size goes in: `size_param`, else `per_page` for `page` and
    /// `link_header` paging and `limit` for the others.
    var sizeParameter: PagingParameter {
        if let sizeParam { return sizeParam }
        switch pagination {
        case .page, .linkHeader: return .query("per_page")
        case .none, .offset, .nextURL, .cursor: return .query("limit")
        }
    }

    /// Whether pages are requested conditionally (`If-None-Match`): not when the next page is
    /// found in a body, which a `304` does not carry, nor for `POST` queries, nor for JSON:API
    /// documents (a page's objects are of several entities).
    var conditional: Bool {
        switch pagination {
        case .nextURL, .cursor: false
        case .none, .offset, .page, .linkHeader: body == nil && format == .rails
        }
    }

    /// Fails `paginate: {after_last: name}` for an entity without that attribute.
    func checkPaging(of entity: EntityMapping, config: PluginConfig) throws(PluginError) {
        guard case .cursor(let cursor) = pagination, case .afterLast(let attribute) = cursor.origin,
            entity.attribute(named: attribute) == nil
        else { return }
        throw PluginError.invalidOptions(
            "http source: 'paginate.after_last' names '\(attribute)', which is not an attribute of '\(entity.name)'"
                + Suggestion.hint(for: attribute, in: entity.attributes.map(\.name)),
            at: config["paginate"]?["after_last"]?.mark ?? config.mark)
    }

    /// Reads `method`, `body`, `paginate` and `size_param`.
    mutating func readPaging(_ reader: OptionReader) throws(PluginError) {
        let post = try Self.isPost(reader)
        if let node = reader.options["body"], !(node.scalar?.isNull ?? false) {
            guard post else { throw reader.fail(node, "'body' is sent with 'method: post' only") }
            guard node.mapping != nil else {
                throw reader.fail(node, "'body' must be a mapping, found \(node.kindName)")
            }
            body = reader.json(node)
        } else if post {
            body = .object(JSONObject())
        }
        pagination = try Self.pagination(reader, pageSize: pageSize, post: post)
        if let node = reader.options["size_param"], let text = try reader.string("size_param") {
            sizeParam = try PagingParameter(text, post: post, node: node, reader: reader)
        }
    }

    private static func isPost(_ reader: OptionReader) throws(PluginError) -> Bool {
        guard let node = reader.options["method"], let method = try reader.string("method") else { return false }
        switch method.lowercased() {
        case "get": return false
        case "post": return true
        default:
            throw reader.fail(
                node,
                "unknown method '\(method)' (expected get or post)\(Suggestion.hint(for: method, in: ["get", "post"]))")
        }
    }

    private static let styles = ["offset", "page", "link_header"]
    private static let shapes = ["next_url", "cursor", "after_last", "header"]

    private static func pagination(
        _ reader: OptionReader, pageSize: Int?, post: Bool
    ) throws(PluginError) -> Pagination {
        guard let node = reader.options["paginate"], !(node.scalar?.isNull ?? false) else {
            return pageSize == nil ? .none : .offset
        }
        guard let pairs = node.mapping else {
            let style = try reader.text(node, "'paginate'")
            switch style {
            case "offset": return .offset
            case "page": return .page
            case "link_header": return .linkHeader
            case "cursor", "next_url", "after_last", "header":
                throw reader.fail(node, "'paginate: \(style)' needs its keys, e.g. \(example(style))")
            default:
                throw reader.fail(
                    node,
                    "unknown pagination '\(style)' (expected offset, page, link_header, or a mapping with next_url, cursor, after_last or header)"
                        + Suggestion.hint(for: style, in: styles + shapes))
            }
        }
        let named = pairs.compactMap { pair in pair.key.scalar?.text }.filter(shapes.contains)
        if named.isEmpty { try reader.onlyKeys(Set(shapes + ["param", "has_more"]), in: node, "'paginate'") }
        guard named.count == 1, let shape = named.first, let value = node[shape] else {
            throw reader.fail(
                node,
                "'paginate' as a mapping takes one of next_url, cursor, after_last or header, e.g. \(example("next_url"))"
            )
        }
        let allowed: Set<String> =
            switch shape {
            case "next_url": [shape]
            case "cursor": [shape, "has_more"]
            default: [shape, "param", "has_more"]
            }
        try reader.onlyKeys(allowed, in: node, "'paginate'")
        let hasMore = try node["has_more"].map { node throws(PluginError) in
            try reader.keyPath(node, "'paginate.has_more'")
        }
        switch shape {
        case "next_url":
            return .nextURL(try reader.keyPath(value, "'paginate.next_url'"))
        case "cursor":
            guard value.mapping != nil else {
                throw reader.fail(value, "'paginate.cursor' must be a mapping, e.g. \(example("cursor"))")
            }
            try reader.onlyKeys(["next", "param"], in: value, "'paginate.cursor'")
            guard let next = value["next"] else {
                throw reader.fail(value, "'paginate.cursor' needs 'next', the key path of the next cursor in each page")
            }
            let param = try parameter(value["param"], default: "cursor", post: post, reader: reader)
            return .cursor(
                CursorPaging(
                    origin: .key(try reader.keyPath(next, "'paginate.cursor.next'")), param: param, hasMore: hasMore))
        case "after_last":
            guard node["param"] != nil else {
                throw reader.fail(node, "'paginate.after_last' needs 'param', e.g. \(example("after_last"))")
            }
            let attribute = try reader.text(value, "'paginate.after_last'")
            let param = try parameter(node["param"], default: "", post: post, reader: reader)
            return .cursor(CursorPaging(origin: .afterLast(attribute: attribute), param: param, hasMore: hasMore))
        default:
            let header = try reader.text(value, "'paginate.header'")
            let param = try parameter(node["param"], default: "cursor", post: post, reader: reader)
            return .cursor(CursorPaging(origin: .header(header), param: param, hasMore: hasMore))
        }
    }

    private static func parameter(
        _ node: YAMLNode?, default name: String, post: Bool, reader: OptionReader
    ) throws(PluginError) -> PagingParameter {
        guard let node else { return .query(name) }
        return try PagingParameter(try reader.text(node, "'paginate.param'"), post: post, node: node, reader: reader)
    }

    private static func example(_ shape: String) -> String {
        switch shape {
        case "cursor": "'paginate: {cursor: {next: meta.next, param: cursor}, has_more: has_more}'"
        case "after_last": "'paginate: {after_last: id, param: starting_after, has_more: has_more}'"
        case "header": "'paginate: {header: X-Next-Cursor, param: cursor}'"
        default: "'paginate: {next_url: next}'"
        }
    }
}
