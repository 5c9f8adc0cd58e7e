import Foundation
import RMap
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
        "X-Total-Count over the page size; offset and page paging fetch the pages the total needs, or page on after a total that fits the first page",
        arguments: [
            (Pagination.page, 25, 3), (.page, 20, 2), (.offset, 9, 1), (.offset, 10, 2), (.page, 0, 1),
            (.linkHeader, 20, 2), (.none, 500, 1),
        ])
    func totalCount(style: Pagination, total: Int, pages: Int) {
        let response = Self.response(["X-Total-Count": String(total)])
        #expect(PageTotal.pages(in: response, document: nil, style: style, pageSize: 10) == pages)
    }

    @Test("the page of the last link, as GitHub sends it")
    func lastLink() {
        let response = Self.response([
            "Link": #"<https://api.example.com/repos/o/r/issues?per_page=30&page=2>; rel="next", "#
                + #"<https://api.example.com/repos/o/r/issues?per_page=30&page=7>; rel="last""#
        ])
        #expect(PageTotal.pages(in: response, document: nil, style: .linkHeader, pageSize: 30) == 7)
    }

    @Test("the body's count or total, as Django REST framework sends it")
    func bodyCount() throws {
        let document = try JSONReader.parse(Data(#"{"count": 25, "next": null, "results": []}"#.utf8), origin: "t")
        #expect(PageTotal.pages(in: Self.response([:]), document: document, style: .page, pageSize: 10) == 3)
        let total = try JSONReader.parse(Data(#"{"total": 40, "items": []}"#.utf8), origin: "t")
        #expect(PageTotal.pages(in: Self.response([:]), document: total, style: .offset, pageSize: 10) == 4)
    }

    @Test("no count, no last link, or no page size: unknown")
    func unknown() {
        #expect(PageTotal.pages(in: Self.response([:]), document: nil, style: .linkHeader, pageSize: 30) == nil)
        #expect(
            PageTotal.pages(in: Self.response(["X-Total-Count": "50"]), document: nil, style: .page, pageSize: nil)
                == nil)
        #expect(
            PageTotal.pages(in: Self.response(["X-Total-Count": "many"]), document: nil, style: .page, pageSize: 10)
                == nil)
    }
}
