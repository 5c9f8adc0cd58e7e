import Foundation
import RMap
import Testing

@testable import RMapHTTP

/// The paging, status and error-envelope keys of the `http` source: each error names the
/// offending node's `file:line:col` and suggests the key or value meant.
@Suite("HTTP source paging options")
struct HTTPSourcePagingOptionsTests {
    @Test(
        "malformed paging, on_status and error_when options fail at their mark",
        arguments: [
            ("paginate: { next_urls: next }", "next_urls", "unknown key 'next_urls' in 'paginate'", "next_url"),
            ("paginate: next_url", "next_url", "'paginate: next_url' needs its keys", nil),
            ("paginate: { next_url: next, has_more: m }", "has_more", "unknown key 'has_more' in 'paginate'", nil),
            (#"paginate: { next_url: "a..b" }"#, #""a..b""#, "'paginate.next_url' must be a key path", nil),
            ("paginate: { next_url: [] }", "[]", "'paginate.next_url' must name at least one key", nil),
            (
                "paginate: { cursor: { next: a }, has_mor: m }", "has_mor", "unknown key 'has_mor' in 'paginate'",
                "has_more"
            ),
            ("paginate: { after_last: id }", "{ after_last", "'paginate.after_last' needs 'param'", nil),
            (
                "paginate: { after_last: id, param: body.after }", "body.after",
                "'body.after' goes in the body, so it needs 'method: post'", nil
            ),
            ("paginate: { header: [X] }", "[X]", "'paginate.header' must be a string, found a list", nil),
            ("method: pots", "pots", "unknown method 'pots' (expected get or post)", "post"),
            ("body: { page_size: 3 }", "{ page_size", "'body' is sent with 'method: post' only", nil),
            ("size_param: body.size", "body.size", "'body.size' goes in the body, so it needs 'method: post'", nil),
            (
                "on_status: { 200: skip }", "200", "'on_status' keys are error statuses from 400 to 599, found '200'",
                nil
            ),
            ("on_status: { 404: skp }", "skp", "unknown action 'skp' for status 404 (expected skip or fail)", "skip"),
            ("on_status: [404]", "[404]", "'on_status' must be a mapping, found a list", nil),
            ("error_when: { key: ok }", "{ key", "'error_when' needs 'key' and a scalar 'equals'", nil),
            (
                "error_when: { key: ok, equals: false, mesage: e }", "mesage", "unknown key 'mesage' in 'error_when'",
                "message"
            ),
        ] as [(String, String, String, String?)])
    func malformed(option: String, at node: String, message: String, suggestion: String?) throws {
        let error = try #require(throws: PluginError.self) { try HTTPSourceOptionsTests.make(option) }
        let column = try #require(option.range(of: node)).lowerBound.utf16Offset(in: option) + 3
        #expect(error.description.hasPrefix("test.yml:5:\(column): http source: \(message)"), "\(error)")
        #expect(error.description.hasSuffix(suggestion.map { "(did you mean '\($0)'?)" } ?? ""), "\(error)")
    }

    @Test("after_last must name an attribute of every entity the source fetches")
    func afterLastAttribute() throws {
        let option = "paginate: { after_last: uid, param: starting_after }"
        let error = try #require(throws: PluginError.self) { try HTTPSourceOptionsTests.make(option) }
        #expect(
            error.description
                == "test.yml:5:27: http source: 'paginate.after_last' names 'uid', which is not an attribute of 'Item' (did you mean 'id'?)"
        )
    }

    @Test("a misspelled key of the source block is a mapping error with a suggestion")
    func unknownKey() throws {
        let error = try #require(throws: MappingError.self) {
            try HTTPSourceOptionsTests.model("on_statu: { 404: skip }")
        }
        #expect("\(error)".contains("test.yml:5:3: unknown key 'on_statu'"))
        #expect("\(error)".contains("(did you mean 'on_status'?)"))
    }

    @Test(
        "each shape reads as its pagination",
        arguments: [
            (
                "paginate: { next_url: _links.next.href }",
                Pagination.nextURL(JSONKeyPath(segments: ["_links", "next", "href"]))
            ),
            (#"paginate: { next_url: ["@odata.nextLink"] }"#, .nextURL(JSONKeyPath(segments: ["@odata.nextLink"]))),
            (
                "paginate: { cursor: { next: meta.next }, has_more: more }",
                .cursor(
                    CursorPaging(
                        origin: .key(JSONKeyPath(segments: ["meta", "next"])), param: .query("cursor"),
                        hasMore: JSONKeyPath(segments: ["more"])))
            ),
            (
                "paginate: { header: X-Next-Cursor }",
                .cursor(CursorPaging(origin: .header("X-Next-Cursor"), param: .query("cursor"), hasMore: nil))
            ),
        ])
    func shapes(option: String, pagination: Pagination) throws {
        let model = try HTTPSourceOptionsTests.model(option)
        let settings = try HTTPSourceSettings(try #require(model.entities.first?.source))
        #expect(settings.pagination == pagination)
    }

    @Test("method: post sends the body, with a body cursor and size set at their key paths")
    func postBody() throws {
        let model = try HTTPSourceOptionsTests.model(
            "method: post\n  body: { filter: { done: true }, sorts: [a] }\n  page_size: 3\n  size_param: body.page_size\n  paginate: { cursor: { next: next_cursor, param: body.start_cursor } }"
        )
        let settings = try HTTPSourceSettings(try #require(model.entities.first?.source))
        let pager = Pager(settings: settings, base: URL(string: "https://api.test/query")!, body: settings.body)
        let request = pager.request([], cursor: (.body(["start_cursor"]), "c2"))
        #expect(request.url.absoluteString == "https://api.test/query")
        #expect(request.http.method == .post)
        #expect(
            request.body.map(JSONWriter.serialize)
                == #"{"filter":{"done":true},"sorts":["a"],"page_size":3,"start_cursor":"c2"}"#)
    }
}
