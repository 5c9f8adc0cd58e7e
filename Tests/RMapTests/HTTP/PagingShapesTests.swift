import Foundation
import RMap
import RMapSQLite
import Testing

@testable import RMapHTTP

extension FaultServerSuites {
    /// The paging shapes of APIs no framework here gives, against the fault server's imitations
    /// (Tests/Fixtures/fault-server/api_shapes.py, each citing the API's documentation): seven
    /// records each, three a page.
    @Suite("HTTP paging shapes")
    struct PagingShapesTests {
        /// A mapping with one entity `Item` at `path` whose `id` is `idType`.
        static func mapping(
            site: URL, path: String, source: String, records: String?, idType: String = "int", name: String = "name"
        ) -> String {
            """
            rmap: 1
            source:
              plugin: http
              site: \(site.absoluteString)
              suffix: ""
            \(source.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
            entities:
              Item:
                path: \(path)
                \(records.map { "records: \($0)" } ?? "")
                attributes:
                  id: \(idType)
                  name: { key: \(name), type: string }
            """
        }

        static func ids(_ harness: FetchHarness) -> [String] {
            harness.records("Item").compactMap { record in
                switch record.object?["id"] {
                case .number(let digits)?: digits
                case .string(let text)?: text
                default: nil
                }
            }
        }

        @Test("next_url: HAL's relative _links.next.href is resolved against the page that sent it")
        func halRelative() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "hal/items",
                    source: "paginate: { next_url: _links.next.href }\nparams: { tag: \(tag) }",
                    records: "_embedded.items"))
            try await harness.fetch(["Item"])
            #expect(Self.ids(harness) == (1...7).map(String.init))
            #expect(
                harness.fetchedOrigins == [
                    "\(site.absoluteString)/hal/items?tag=\(tag)", "\(site.absoluteString)/hal/items?page=2",
                    "\(site.absoluteString)/hal/items?page=3",
                ])
        }

        @Test("next_url as a list of segments: OData's @odata.nextLink, a key with dots")
        func odata() async throws {
            let site = try TestServers.fault()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "odata/Items", source: #"paginate: { next_url: ["@odata.nextLink"] }"#,
                    records: "value"))
            try await harness.fetch(["Item"])
            #expect(Self.ids(harness) == (1...7).map(String.init))
            #expect(harness.fetchedOrigins.count == 3)
        }

        /// A cursor shape, the records its server pages, and the cursors of pages 2 and 3.
        struct CursorCase: Sendable, CustomTestStringConvertible {
            var path: String
            var paginate: String
            var records: String?
            var idType: String
            var ids: [String]
            var cursors: [String]
            var testDescription: String { path }
        }

        @Test(
            "header: X-Next-Cursor until a page has none; after_last: Stripe's starting_after is the last id, until has_more is false",
            arguments: [
                CursorCase(
                    path: "headercursor/items", paginate: "{ header: X-Next-Cursor, param: cursor }", records: nil,
                    idType: "int", ids: (1...7).map(String.init),
                    cursors: ["cursor=YXQ6Mw%3D%3D", "cursor=YXQ6Ng%3D%3D"]),
                CursorCase(
                    path: "stripe/v1/customers",
                    paginate: "{ after_last: id, param: starting_after, has_more: has_more }",
                    records: "data", idType: "string", ids: (1...7).map { "cus_00\($0)" },
                    cursors: ["starting_after=cus_003", "starting_after=cus_006"]),
            ])
        func cursorShapes(_ shape: CursorCase) async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: shape.path,
                    source: "paginate: \(shape.paginate)\npage_size: 3\nparams: { tag: \(tag) }",
                    records: shape.records,
                    idType: shape.idType))
            try await harness.fetch(["Item"])
            #expect(Self.ids(harness) == shape.ids)
            let first = "/\(shape.path)?tag=\(tag)&limit=3"
            #expect(
                try await Plain.requestedPaths(site, containing: tag) == [first]
                    + shape.cursors.map { "\(first)&\($0)" })
        }

        @Test("method: post with body cursors: Notion's start_cursor goes in the JSON body, until has_more is false")
        func notion() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "notion/v1/databases/\(tag)/query",
                    source: """
                        method: post
                        body: { page_size: 3, filter: { property: Done } }
                        paginate: { cursor: { next: next_cursor, param: body.start_cursor }, has_more: has_more }
                        """,
                    records: "results", idType: "string", name: "properties.Name.plain"))
            try await harness.fetch(["Item"])
            #expect(harness.records("Item").count == 7)
            let requests = try await Plain.requests(site, containing: tag)
            #expect(requests.map { $0["method"]?.string } == ["POST", "POST", "POST"])
            let bodies = try requests.map {
                try JSONReader.parse(Data(($0["body"]?.string ?? "").utf8), origin: "body")
            }
            #expect(bodies.map { $0.object?["start_cursor"]?.string } == [nil, "YXQ6Mw==", "YXQ6Ng=="])
            #expect(bodies.allSatisfy { $0.object?["page_size"] == .number("3") })
            #expect(bodies.allSatisfy { $0.object?["filter"]?.object?["property"] == .string("Done") })
        }

        /// The Slack imitation's channels, with `token` as the bearer token.
        static func slack(site: URL, token: String) throws -> FetchHarness {
            try FetchHarness(
                Self.mapping(
                    site: site, path: "slack/api/conversations.list",
                    source: """
                        auth: { bearer: "${SLACK_TOKEN}" }
                        page_size: 3
                        paginate: { cursor: { next: response_metadata.next_cursor, param: cursor } }
                        error_when: { key: ok, equals: false, message: error }
                        """,
                    records: "channels", idType: "string"),
                environment: ["SLACK_TOKEN": token])
        }

        @Test("cursor at a key path: Slack's response_metadata.next_cursor until it is empty")
        func slackPages() async throws {
            let harness = try Self.slack(site: try TestServers.fault(), token: "xoxb-s3cret")
            try await harness.fetch(["Item"])
            #expect(Self.ids(harness) == (1...7).map { "C0000\($0)" })
        }

        @Test("error_when: a 200 answer with ok: false fails the run with the API's message, naming the URL")
        func slackError() async throws {
            let site = try TestServers.fault()
            let harness = try Self.slack(site: site, token: "xoxb-wrong-token")
            await #expect {
                try await harness.fetch(["Item"])
            } throws: { error in
                "\(error)"
                    == "GET \(site.absoluteString)/slack/api/conversations.list?limit=3: fetching Item: the answer is an error: invalid_auth (ok: false)"
            }
            #expect(harness.records("Item").isEmpty)
            #expect(!harness.notes.joined().contains("xoxb-wrong-token"))
        }

        @Test(
            "Stripe's, Notion's and Slack's shapes load into the store, and a re-run changes nothing",
            arguments: [
                (
                    "stripe/v1/customers",
                    "paginate: { after_last: id, param: starting_after, has_more: has_more }\npage_size: 3", "data",
                    "name"
                ),
                (
                    "notion/v1/databases/d1/query",
                    "method: post\nbody: { page_size: 3 }\npaginate: { cursor: { next: next_cursor, param: body.start_cursor }, has_more: has_more }",
                    "results", "properties.Name.plain"
                ),
                (
                    "slack/api/conversations.list",
                    "auth: { bearer: \"${SLACK_TOKEN}\" }\npage_size: 3\npaginate: { cursor: { next: response_metadata.next_cursor, param: cursor } }\nerror_when: { key: ok, equals: false, message: error }",
                    "channels", "name"
                ),
            ])
        func loads(path: String, source: String, records: String, name: String) async throws {
            let directory = try TemporaryDirectory()
            let mapping = Self.mapping(
                site: try TestServers.fault(), path: path, source: source, records: records, idType: "string",
                name: name)
            try mapping.write(to: directory.url.appendingPathComponent("t.yml"), atomically: true, encoding: .utf8)
            let arguments = ["run", "t.yml", "--store", "t.sqlite", "--quiet", "--json"]
            let environment = ["SLACK_TOKEN": "xoxb-s3cret"]
            let first = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            let database = try SQLiteConnection(path: directory.url.appendingPathComponent("t.sqlite").path)
            #expect(
                try database.query("SELECT count(*), count(DISTINCT id) FROM items", []) == [
                    [.integer(7), .integer(7)]
                ])
            let second = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(second.stdout.contains(#""inserted":0,"updated":0,"unchanged":7"#), "\(second.stdout)")
        }
    }
}
