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
    /// Passes the token found at `next` in each body back as the `param` query
    /// parameter; stops when it is null, missing or empty.
    case cursor(next: [String], param: String)
}
