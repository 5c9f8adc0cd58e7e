import RMap

/// Cursor paging: where each page's cursor for the next comes from, the parameter it is sent
/// back as, and the flag that says more pages follow.
///
/// - `cursor: {next: meta.next, param: cursor}`: the token at a key path of the body;
/// - `header: X-Next-Cursor`: the token in a response header;
/// - `after_last: id`: the last record's value of the attribute (Stripe's `starting_after`).
///
/// Paging stops at a token that is null, missing or empty, at a page without records
/// (`after_last`), and, with `has_more: key.path`, when that key is not `true`.
struct CursorPaging: Sendable, Hashable {
    /// Where the next cursor is found.
    enum Origin: Sendable, Hashable {
        /// A key path of the body.
        case key(JSONKeyPath)
        /// A response header.
        case header(String)
        /// The attribute (by name) of the page's last record.
        case afterLast(attribute: String)
    }

    var origin: Origin
    /// Where the cursor goes in the next request.
    var param: PagingParameter
    /// The body's flag that more pages follow, when the API has one.
    var hasMore: JSONKeyPath?

    /// The cursor for the page after this one, or `nil` when this one was the last.
    ///
    /// - Parameter lastValue: the page's last record's value of the `after_last` attribute
    ///   (called for that origin only; `nil` for an empty page).
    func next(
        after response: HTTPResponse, document: JSONValue?, lastValue: () async throws -> String?
    ) async throws -> String? {
        if let hasMore, hasMore.value(in: document) != .bool(true) { return nil }
        let token: String? =
            switch origin {
            case .key(let path): path.text(in: document)
            case .header(let name): response.headers[name]
            case .afterLast: try await lastValue()
            }
        guard let token, !token.isEmpty else { return nil }
        return token
    }
}
