import RMap

extension Pagination {
    /// Reads `paginate`: a style's name (`offset`, `page`, `link_header`) or a mapping with one of
    /// `next_url`, `cursor`, `after_last` or `header`; without it, `offset` when there is a
    /// `page_size`, else one request.
    ///
    /// - Parameters:
    ///   - pageSize: the `page_size` option.
    ///   - post: whether the index is a `method: post` query (a parameter may then be `body.key`).
    init(_ reader: OptionReader, pageSize: Int?, post: Bool) throws(PluginError) {
        guard let node = reader.options["paginate"], !(node.scalar?.isNull ?? false) else {
            self = pageSize == nil ? .none : .offset
            return
        }
        guard let pairs = node.mapping else {
            self = try Self.style(node, reader: reader)
            return
        }
        self = try Self.shape(node, pairs, post: post, reader: reader)
    }

    private static let styles = ["offset", "page", "link_header"]
    private static let shapes = ["next_url", "cursor", "after_last", "header"]

    /// `paginate: name`.
    private static func style(_ node: YAMLNode, reader: OptionReader) throws(PluginError) -> Pagination {
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

    /// `paginate: {next_url: ...}`, `{cursor: {...}}`, `{after_last: ..., param: ...}` or `{header: ...}`.
    private static func shape(
        _ node: YAMLNode, _ pairs: [YAMLPair], post: Bool, reader: OptionReader
    ) throws(PluginError) -> Pagination {
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
