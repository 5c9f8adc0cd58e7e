import Foundation
import RMap

/// How many pages an index has, when its first page says so: the records of
/// `X-Total-Count` over the page size, or the `page` of the `last` link
/// (GitHub, Rails); for progress with a percent and an ETA.
enum PageTotal {
    /// The number of pages the pager will fetch, or `nil` when the answer does not tell.
    ///
    /// Paging by `offset` or `page` stops on a short page, so an index whose records
    /// fill every page ends with an empty one.
    static func pages(in response: HTTPResponse, style: Pagination, pageSize: Int?) -> Int? {
        let total = response.headers["X-Total-Count"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        switch (style, total, pageSize) {
        case (.none, .some, _):
            return 1
        case (.offset, .some(let total), .some(let size)) where size > 0,
            (.page, .some(let total), .some(let size)) where size > 0:
            return total / size + 1
        default:
            if let last = lastPage(response) { return last }
            guard let total, let size = pageSize, size > 0 else { return nil }
            return max(1, (total + size - 1) / size)
        }
    }

    /// The `page` query parameter of the `last` link.
    private static func lastPage(_ response: HTTPResponse) -> Int? {
        guard let last = response.links["last"] else { return nil }
        let items = URLComponents(url: last, resolvingAgainstBaseURL: true)?.queryItems ?? []
        return items.first { $0.name == "page" }?.value.flatMap { Int($0) }
    }
}
