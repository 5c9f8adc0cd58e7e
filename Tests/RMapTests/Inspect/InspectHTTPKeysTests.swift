import Foundation
import Testing

/// `rmap inspect` shows the http source's paging, status and error-envelope keys as written,
/// with secrets hidden.
@Suite("rmap inspect: http paging and status keys")
struct InspectHTTPKeysTests {
    @Test("paginate shapes, size_param, method, body, on_status and error_when appear in the source line")
    func keysShown() async throws {
        let directory = try TemporaryDirectory()
        try """
        rmap: 1
        source:
          plugin: http
          site: https://api.example.com
          auth: { bearer: "${TOKEN}" }
          method: post
          body: { page_size: 3 }
          size_param: body.page_size
          paginate: { cursor: { next: next_cursor, param: body.start_cursor }, has_more: has_more }
          on_status: { 404: skip }
          error_when: { key: ok, equals: false, message: error }
        entities:
          Task:
            records: results
            attributes: { id: string }
        """.write(to: directory.url.appendingPathComponent("t.yml"), atomically: true, encoding: .utf8)
        let result = try await CLIRunner.run(
            ["inspect", "t.yml"], in: directory.url, environment: ["TOKEN": "tok-s3cret"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "source: http {site: https://api.example.com, auth: {bearer: ***}, method: post, body: {page_size: 3}, size_param: body.page_size, paginate: {cursor: {next: next_cursor, param: body.start_cursor}, has_more: has_more}, on_status: {404: skip}, error_when: {key: ok, equals: false, message: error}}"
            ), "\(result.stdout)")
        #expect(!result.stdout.contains("tok-s3cret"))
    }
}
