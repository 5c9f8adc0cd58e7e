import Foundation
import RMap

/// The pages of an `offset` or `page` index whose first page tells how many there are: the
/// records in total (`X-Total-Count`, or the body's `count` or `total`, as Django REST
/// framework and many others give it) over the page size, or the `page` of the `last` link.
/// The other pages are then known in advance, and fetched `concurrency` at a time (with a
/// `concurrency` of 1, the index is paged one page after another as without a total).
struct PagePlan {
    /// The pages of the index, the first included.
    var pages: Int
    /// The records per page: `page_size`, or else the first page's (the server's default).
    var size: Int
    private let style: Pagination

    /// The plan after a first page with `records` records, or `nil` when the answer does not tell
    /// the total, or that page was short (the index ends there).
    init?(_ response: HTTPResponse, document: JSONValue?, records: Int, settings: HTTPSourceSettings) {
        let size = settings.pageSize ?? records
        guard settings.pagination == .offset || settings.pagination == .page, settings.concurrency > 1, size > 0,
            records >= size
        else {
            return nil
        }
        let pages: Int
        if settings.pagination == .page, let last = PageTotal.lastPage(response) {
            pages = last
        } else if let total = PageTotal.records(in: response, document: document) {
            pages = (total + size - 1) / size
        } else {
            return nil
        }
        guard pages > 1 else { return nil }
        self.pages = pages
        self.size = size
        style = settings.pagination
    }

    /// The request of page `number` (0 for the first).
    func request(_ number: Int, pager: Pager) -> PageRequest {
        style == .page ? pager.request([("page", number + 1)]) : pager.request([("offset", number * size)])
    }

    /// Fails a plan longer than `max_pages`.
    func check(_ settings: HTTPSourceSettings) throws(Pager.Failure) {
        guard pages > settings.maxPages else { return }
        throw Pager.Failure(
            message:
                "the index has \(pages) pages, more than max_pages (\(settings.maxPages)); raise max_pages if the index really is that long"
        )
    }

    /// The failure of page `number` that came back the same as the first.
    func repeated(_ number: Int, settings: HTTPSourceSettings) -> Pager.Failure {
        let parameter = style == .page ? "'page'" : "'offset'"
        return Pager.Failure(
            message: "page \(number + 1) is the same as page 1 (does the server ignore \(parameter)?); stopping")
    }
}
