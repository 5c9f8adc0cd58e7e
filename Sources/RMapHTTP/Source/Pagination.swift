/// How an index is paged (`paginate:`).
enum Pagination: Sendable, Hashable {
    /// One request, no paging parameters.
    case none
    /// ActiveResource's `limit` / `offset`; stops on a short or empty page.
    case offset
    /// `page=1,2,…` with `per_page`; stops on a short or empty page.
    case page
    /// Follows the `Link` header's `rel="next"` (GitHub); `per_page` on the first request.
    case linkHeader
    /// Follows the URL found at a key path of each body, absolute or relative (DRF's `next`,
    /// HAL's `_links.next.href`, OData's `@odata.nextLink`, Salesforce's `nextRecordsUrl`);
    /// stops when it is null, missing or empty.
    case nextURL(JSONKeyPath)
    /// Passes a cursor back as a parameter: read from the body, a header, or the last record
    /// (``CursorPaging``).
    case cursor(CursorPaging)
}
