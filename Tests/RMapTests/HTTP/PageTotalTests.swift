import Foundation
import Testing

@testable import RMapHTTP

/// How many pages an index has, read from its first answer.
@Suite("Page totals for progress")
struct PageTotalTests {
    static let base = URL(string: "https://api.example.com/repos/o/r/issues?per_page=30")!

    static func response(_ headers: [String: String]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: HTTPHeaders(headers), url: base)
    }

    @Test(
        "X-Total-Count over the page size; offset and page paging end on a short or empty page",
        arguments: [
            (Pagination.page, 25, 3), (.page, 20, 3), (.offset, 9, 1), (.page, 0, 1), (.linkHeader, 20, 2),
            (.none, 500, 1),
        ])
    func totalCount(style: Pagination, total: Int, pages: Int) {
        let response = Self.response(["X-Total-Count": String(total)])
        #expect(PageTotal.pages(in: response, style: style, pageSize: 10) == pages)
    }

    @Test("the page of the last link, as GitHub sends it")
    func lastLink() {
        let response = Self.response([
            "Link": #"<https://api.example.com/repos/o/r/issues?per_page=30&page=2>; rel="next", "#
                + #"<https://api.example.com/repos/o/r/issues?per_page=30&page=7>; rel="last""#
        ])
        #expect(PageTotal.pages(in: response, style: .linkHeader, pageSize: 30) == 7)
    }

    @Test("no count, no last link, or no page size: unknown")
    func unknown() {
        #expect(PageTotal.pages(in: Self.response([:]), style: .linkHeader, pageSize: 30) == nil)
        #expect(PageTotal.pages(in: Self.response(["X-Total-Count": "50"]), style: .page, pageSize: nil) == nil)
        #expect(PageTotal.pages(in: Self.response(["X-Total-Count": "many"]), style: .page, pageSize: 10) == nil)
    }
}
