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
        pagination = try Pagination(reader, pageSize: pageSize, post: post)
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
}
