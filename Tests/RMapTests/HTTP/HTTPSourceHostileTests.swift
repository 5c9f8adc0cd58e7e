import Foundation
import Testing

@testable import RMap
@testable import RMapHTTP

extension FaultServerSuites {
    /// The http source against a hostile or broken server: redirects and links to
    /// another origin, endless and compressed bodies, endless paging, dot segments.
    @Suite("HTTP source against a hostile server")
    struct HTTPSourceHostileTests {
        /// The fault server's other origin: the same server on 127.0.0.2 (another host).
        static func otherOrigin(_ site: URL) throws -> URL {
            var components = try #require(URLComponents(url: site, resolvingAgainstBaseURL: false))
            components.host = "127.0.0.2"
            return try #require(components.url)
        }

        static let credentials: [(option: String, header: String, value: String)] = [
            ("auth: { bearer: \"${TOKEN}\" }", "authorization", "Bearer s3cret"),
            ("auth: { basic: { user: alice, password: \"${TOKEN}\" } }", "authorization", "Basic YWxpY2U6czNjcmV0"),
            ("auth: { api_key: { header: X-API-Key, value: \"${TOKEN}\" } }", "x-api-key", "s3cret"),
            ("auth: { api_key: { param: api_key, value: \"${TOKEN}\" } }", "", "api_key=s3cret"),
        ]

        /// Fetches `route/<tag>` whose answer sends the client on to the other origin's `/empty/<tag>`,
        /// and returns the logged requests to the site and to the other origin.
        static func leave(
            via route: String, credential: Int, extra: String = ""
        ) async throws -> (site: JSONObject, other: JSONObject) {
            let site = try TestServers.fault()
            let tag = marker()
            let target = try otherOrigin(site).appendingPathComponent("empty/\(tag)")
            let paging = route == "linkto" ? "paginate: link_header\n" : ""
            let source =
                "\(credentials[credential].option)\nheaders: { X-Custom: hello }\n\(paging)params: { to: \"\(target.absoluteString)\" }\(extra)"
            let harness = try FetchHarness(
                HTTPSourceFaultTests.mapping(site: site, path: "\(route)/\(tag)", source: source),
                environment: ["TOKEN": "s3cret"])
            try await harness.fetch(["Item"])
            let logged = try await Plain.requests(site, containing: tag)
            let home = try #require(logged.first { $0["path"]?.string?.hasPrefix("/\(route)/") == true })
            let away = try #require(logged.first { $0["path"]?.string?.hasPrefix("/empty/") == true })
            #expect(away["headers"]?.object?["host"]?.string?.hasPrefix("127.0.0.2:") == true)
            return (home, away)
        }

        /// True when `request` carries credential `index` (and the configured header).
        static func carries(_ request: JSONObject, credential index: Int) -> (credential: Bool, header: Bool) {
            let (_, header, value) = credentials[index]
            let headers = request["headers"]?.object
            let credential =
                header.isEmpty
                ? request["path"]?.string?.contains(value) == true : headers?[header]?.string == value
            return (credential, headers?["x-custom"]?.string == "hello")
        }

        // MARK: - Credentials stay with the site

        @Test(
            "a redirect or a next link to another origin carries no credentials nor configured headers",
            arguments: ["redirect", "linkto"], 0..<4)
        func otherOriginGetsNothing(route: String, credential: Int) async throws {
            let (home, away) = try await Self.leave(via: route, credential: credential)
            #expect(Self.carries(home, credential: credential) == (true, true))
            #expect(Self.carries(away, credential: credential) == (false, false))
            #expect(away["headers"]?.object?["authorization"] == nil)
        }

        @Test(
            "allow_hosts lets the credentials and headers through to a listed host", arguments: ["redirect", "linkto"],
            0..<4)
        func allowedHost(route: String, credential: Int) async throws {
            let (_, away) = try await Self.leave(
                via: route, credential: credential, extra: "\nallow_hosts: [127.0.0.2]")
            #expect(Self.carries(away, credential: credential) == (true, true))
        }

        @Test("a write redirected (307) to another origin keeps its method and body, not the credentials")
        func writeRedirected() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let target = try Self.otherOrigin(site).appendingPathComponent("empty/\(tag)/1")
            var start = try #require(URLComponents(url: site, resolvingAgainstBaseURL: false))
            start.path = "/redirect/\(tag)"
            start.queryItems = [
                URLQueryItem(name: "status", value: "307"), URLQueryItem(name: "to", value: target.absoluteString),
            ]
            let body = JSONValue.object(JSONObject([("a", .number("1"))]))
            let response = try await HTTPClient(auth: .bearer("s3cret"))
                .send(HTTPRequest(.put, url: try #require(start.url), json: body))
            #expect(response.status == 204)
            let logged = try await Plain.requests(site, containing: tag)
            #expect(logged.map { $0["method"]?.string } == ["PUT", "PUT"])
            #expect(logged.map { $0["headers"]?.object?["authorization"]?.string } == ["Bearer s3cret", nil])
            #expect(logged.last?["body"]?.string == #"{"a":1}"#)
        }

        @Test("a next link to a file:// URL does not read the local disk")
        func fileLink() async throws {
            let site = try TestServers.fault()
            let harness = try FetchHarness(
                HTTPSourceFaultTests.mapping(
                    site: site, path: "linkto/\(marker())",
                    source: "paginate: link_header\nretries: 0\nparams: { to: \"file:///etc/hostname\" }"))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.origin == "GET file:///etc/hostname")
            #expect(error.message.hasPrefix("fetching Item: connection lost (Protocol \"file\" not supported"))
            #expect(harness.payloads.count == 1)
        }

        @Test("a site with user and password never shows them, not even base64-encoded in an echoed header")
        func userinfoRedacted() async throws {
            let site = try TestServers.fault()
            let path = "echo/\(marker())"
            let withUser = site.absoluteString.replacingOccurrences(of: "http://", with: "http://bob:${PW}@")
            let yaml = HTTPSourceFaultTests.mapping(site: site, path: path)
                .replacingOccurrences(of: "site: \(site.absoluteString)", with: "site: \(withUser)")
            let harness = try FetchHarness(yaml, environment: ["PW": "hunter2"])
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            let basic = Data("bob:hunter2".utf8).base64EncodedString()
            let logged = try #require(try await Plain.requests(site, containing: path).first)
            #expect(logged["headers"]?.object?["authorization"]?.string == "Basic \(basic)")
            #expect(!error.description.contains("hunter2") && !error.description.contains(basic))
            #expect(error.description.contains("\"authorization\": \"***\""))
        }

        @Test("an echoed Authorization value is hidden whatever it holds")
        func authorizationRedacted() {
            let redactor = Redactor(secrets: [])
            #expect(
                redactor.redact(#"{"authorization": "Basic Ym9iOnB3", "accept": "x"}"#)
                    == #"{"authorization": "***", "accept": "x"}"#)
            #expect(redactor.redact("Authorization: Bearer abc\r\nAccept: x") == "Authorization: ***\r\nAccept: x")
        }

        // MARK: - Bodies

        @Test(
            "a body that never ends, or a gzip bomb counted after inflating, stops at max_body_bytes naming the URL",
            arguments: ["endless", "gzipbomb"])
        func oversizedBody(route: String) async throws {
            let site = try TestServers.fault()
            let path = "\(route)/\(marker())"
            let harness = try FetchHarness(
                HTTPSourceFaultTests.mapping(site: site, path: path, source: "max_body_bytes: 1048576"))
            let started = ContinuousClock.now
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.origin == "GET \(site.absoluteString)/\(path).json")
            #expect(
                error.message
                    == "fetching Item: the answer is larger than max_body_bytes (1048576 bytes); stopped reading it")
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(harness.payloads.isEmpty)
        }

        @Test("a compressed answer within the limit is inflated and mapped")
        func compressedAnswer() async throws {
            let site = try TestServers.fault()
            let harness = try FetchHarness(
                HTTPSourceFaultTests.mapping(site: site, path: "gzipbomb/\(marker())", source: "params: { mb: 1 }"))
            try await harness.fetch(["Item"])
            #expect(harness.records("Item").isEmpty)
            #expect(harness.payloads.count == 1)
        }

        @Test(
            "rmap run stays far below max_body_bytes (256 MiB) against an endless body and a gzip bomb past it",
            .timeLimit(.minutes(30)), arguments: ["endless", "gzipbomb"])
        func boundedMemory(route: String) async throws {
            let site = try TestServers.fault()
            let directory = try TemporaryDirectory()
            try directory.write(
                "m.yml",
                HTTPSourceFaultTests.mapping(
                    site: site, path: "\(route)/\(marker())", source: "params: { mb: 300 }\nretries: 0"))
            let rmap = try CLIRunner.binary().path
            let script = """
                import resource, subprocess, sys
                run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
                print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, run.returncode)
                print(run.stderr)
                """
            let result = try await CLIRunner.run(
                ["-c", script, rmap, "run", "m.yml", "--store", "memory:", "--quiet"], executable: "/usr/bin/python3",
                in: directory.url)
            let lines = result.stdout.split(separator: "\n", maxSplits: 1)
            let figures = try #require(lines.first).split(separator: " ")
            let kilobytes = try #require(Int(figures[0]))
            #expect(figures.last == "1", "\(result.stdout)")
            // AddressSanitizer's shadow memory and 256 MiB quarantine come on top (scripts/test
            // names the sanitizer); without the limit the answers would take gigabytes either way.
            let sanitized = ProcessInfo.processInfo.environment["RMAP_SANITIZER"] == "address"
            #expect(kilobytes < (sanitized ? 640 : 128) * 1024, "peak RSS \(kilobytes) kB")
            #expect(result.stdout.contains("max_body_bytes (268435456 bytes)"))
        }

        // MARK: - Paging that would never end

        @Test("a server that ignores offset stops at the repeated page", .timeLimit(.minutes(30)))
        func ignoredOffset() async throws {
            let site = try TestServers.fault()
            let path = "stuck/\(marker())"
            let harness = try FetchHarness(HTTPSourceFaultTests.mapping(site: site, path: path, source: "page_size: 2"))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.origin == "GET \(site.absoluteString)/\(path).json?limit=2&offset=2")
            #expect(
                error.message
                    == "fetching Item: page 2 is the same as page 1 (does the server ignore 'offset'?); stopping instead of looping"
            )
            #expect(try await Plain.requests(site, containing: path).count == 2)
        }

        @Test(
            "a cursor or next link sent again stops the paging", .timeLimit(.minutes(30)),
            arguments: [
                ("samecursor", "paginate: { cursor: { next: meta.next, param: cursor } }", "records: data", "again"),
                ("samelink", "paginate: link_header\nsuffix: \"\"", "", "?page=2"),
                ("samecursor", "paginate: { after_last: id, param: starting_after }", "records: data", "(1)"),
            ])
        func repeatedNext(route: String, source: String, entity: String, repeated: String) async throws {
            let site = try TestServers.fault()
            let path = "\(route)/\(marker())"
            let harness = try FetchHarness(
                HTTPSourceFaultTests.mapping(site: site, path: path, source: source, entity: entity))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.message.hasPrefix("fetching Item: the server sent the same next page twice ("))
            #expect(error.message.contains(repeated))
            #expect(try await Plain.requests(site, containing: path).count == 2)
        }

        @Test("paging stops after max_pages pages", .timeLimit(.minutes(30)))
        func maxPages() async throws {
            let site = try TestServers.fault()
            let path = "pages/\(marker())"
            let harness = try FetchHarness(
                HTTPSourceFaultTests.mapping(
                    site: site, path: path, source: "paginate: page\npage_size: 1\nmax_pages: 5"))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(
                error.message
                    == "fetching Item: stopped after max_pages (5) pages; raise max_pages if the index really is that long"
            )
            #expect(try await Plain.requests(site, containing: path).count == 5)
            #expect(harness.records("Item").count == 5)
        }

        // MARK: - Dot segments

        @Test("identities '.' and '..' reach the server as %2E and %2E%2E in a nested path")
        func dotSegmentsInNestedPath() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let yaml = """
                rmap: 1
                source: { plugin: http, site: "\(site.absoluteString)" }
                entities:
                  Group:
                    path: empty/\(tag)/groups
                    identity: slug
                    attributes: { slug: string }
                  Member:
                    nested_path: empty/\(tag)/groups/{groupSlug}/members
                    attributes: { id: int, groupSlug: string }
                    relationships:
                      group: { to_one: Group, connect: { foreign_key: { groupSlug: slug } } }
                """
            try await FetchHarness(yaml).fetch(
                "Member", parents: [".", "..", "a.b"].map { IdentityKey([.string($0)]) })
            let paths = try await Plain.requestedPaths(site, containing: tag)
            #expect(
                Set(paths) == [
                    "/empty/\(tag)/groups/%2E/members.json", "/empty/\(tag)/groups/%2E%2E/members.json",
                    "/empty/\(tag)/groups/a.b/members.json",
                ])
        }

        @Test("a pushed identity '..' keeps its segment: the URL sent is the one rmap diff shows")
        func dotSegmentsInPushPath() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let path = "/empty/\(tag)/labels/\(RequestBuilder.segment([.string("..")]))"
            #expect(path == "/empty/\(tag)/labels/%2E%2E")
            let url = try #require(URL(string: site.absoluteString + path))
            _ = try await HTTPClient().send(HTTPRequest(.delete, url: url))
            #expect(try await Plain.requestedPaths(site, containing: tag) == [path])
        }
    }
}
