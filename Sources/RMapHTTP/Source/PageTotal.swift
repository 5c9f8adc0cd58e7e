import Foundation
import RMap

/// How many pages an index has, when its first page says so: the records of
/// `X-Total-Count` (or the body's `count` or `total`) over the page size, or the `page` of the `last` link
/// (GitHub, Rails); for progress with a percent and an ETA.
enum PageTotal {
    /// The number of pages the pager will fetch, or `nil` when the answer does not tell.
    static func pages(in response: HTTPResponse, document: JSONValue?, style: Pagination, pageSize: Int?) -> Int? {
        let total = records(in: response, document: document)
        switch (style, total, pageSize) {
        case (.none, .some, _):
            return 1
        case (.offset, .some(let total), .some(let size)) where size > 0,
            (.page, .some(let total), .some(let size)) where size > 0:
            // The other pages are fetched as many as the total needs (``PagePlan``); a total that fills
            // the first page exactly or less is paged on until a short page.
            return total > size ? (total + size - 1) / size : total / size + 1
        default:
            if let last = lastPage(response) { return last }
            guard let total, let size = pageSize, size > 0 else { return nil }
            return max(1, (total + size - 1) / size)
        }
    }

    /// The records in total that an answer tells: its `X-Total-Count` header, or its body's
    /// top-level `count` or `total` (a whole number).
    static func records(in response: HTTPResponse, document: JSONValue?) -> Int? {
        if let header = response.headers["X-Total-Count"] { return Int(header.trimmingCharacters(in: .whitespaces)) }
        for key in ["count", "total"] {
            if case .number(let digits)? = document?.object?[key], let total = Int(digits), total >= 0 { return total }
        }
        return nil
    }

    /// The `page` query parameter of the `last` link.
    static func lastPage(_ response: HTTPResponse) -> Int? {
        guard let last = response.links["last"] else { return nil }
        let items = URLComponents(url: last, resolvingAgainstBaseURL: true)?.queryItems ?? []
        return items.first { $0.name == "page" }?.value.flatMap { Int($0) }
    }
}
