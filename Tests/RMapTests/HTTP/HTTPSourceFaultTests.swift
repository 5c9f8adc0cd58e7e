import Foundation
import RMap
import Testing

@testable import RMapHTTP

extension FaultServerSuites {
    /// The http source against the fault-injection server (see Tests/Fixtures/fault-server/README.md):
    /// non-Rails paging, authentication, retries and broken answers. Each test uses its own paths,
    /// so that parallel tests find their own requests in the server's log.
    @Suite("HTTP source against the fault server")
    struct HTTPSourceFaultTests {
        /// A mapping with one entity `Item` at `path`; `source` lines go into the `source:` block.
        static func mapping(site: URL, path: String, source: String = "", entity: String = "") -> String {
            """
            rmap: 1
            source:
              plugin: http
              site: \(site.absoluteString)
            \(source.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
            entities:
              Item:
                path: \(path)
                \(entity)
                attributes:
                  id: int
                  name: string
            """
        }

        static let items: [JSONValue] = [1, 2].map { number in
            .object(JSONObject([("id", .number(String(number))), ("name", .string("Item \(number)"))]))
        }

        // MARK: - Paging

        @Test("link_header follows rel=next exactly, even when the path changes")
        func linkHeader() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "link/items",
                    source: "suffix: \"\"\npaginate: link_header\npage_size: 3\nparams: { tag: \(tag) }"))
            try await harness.fetch(["Item"])
            let numbers = harness.records("Item").compactMap { $0.object?["number"] }
            #expect(numbers == (1...13).reversed().map { .number(String($0)) })
            #expect(
                harness.fetchedOrigins == ["\(site.absoluteString)/link/items?tag=\(tag)&per_page=3"]
                    + (2...5).map { "\(site.absoluteString)/link/repositories/1000/items?per_page=3&page=\($0)" })
        }

        @Test("cursor: the token at meta.next goes back as ?cursor= until it is null", arguments: [3, 4])
        func cursor(pageSize: Int) async throws {
            let site = try TestServers.fault()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "cursor/items",
                    source: "paginate: { cursor: { next: meta.next, param: cursor } }\npage_size: \(pageSize)",
                    entity: "records: data"))
            try await harness.fetch(["Item"])
            #expect(harness.records("Item").compactMap { $0.object?["id"] } == (1...10).map { .number(String($0)) })
            let pages = (10 + pageSize - 1) / pageSize
            #expect(harness.fetchedOrigins.count == pages)
            #expect(harness.fetchedOrigins.first == "\(site.absoluteString)/cursor/items.json?limit=\(pageSize)")
            #expect(harness.fetchedOrigins.dropFirst().allSatisfy { $0.contains("&cursor=") })
        }

        @Test("parents' children are fetched concurrently, at most `concurrency` at a time")
        func concurrency() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let yaml = """
                rmap: 1
                source:
                  plugin: http
                  site: \(site.absoluteString)
                  concurrency: 4
                  params: { seconds: 2 }
                entities:
                  Group:
                    path: slow/\(tag)/groups
                    attributes: { id: int }
                  Member:
                    nested_path: slow/\(tag)/groups/{groupId}/members
                    attributes: { id: int, groupId: int }
                    relationships:
                      group: { to_one: Group, connect: { foreign_key: { groupId: id } } }
                """
            let delivered = Locked<[Payload]>([])
            try await FetchHarness(yaml).fetch("Member", parents: (1...5).map { IdentityKey([.int($0)]) }) { payload in
                delivered.withLock { $0.append(payload) }
            }
            // Counted by the server, not timed: five parents' requests, each sleeping 2 s there. One
            // at a time would never overlap; the limit allows four. (Wall-clock bounds failed under the
            // thread sanitizer on a loaded machine: 21 s for what takes 4 s.)
            let peak = try await Plain.json(site.appendingPathComponent("_slow")).object?[tag]
            #expect(
                [2, 3, 4].map { JSONValue.number("\($0)") }.contains(peak), "most at once: \(String(describing: peak))")
            let fills = delivered.withLock { $0.map(\.fill) }
            #expect(Set(fills) == Set((1...5).map { ["groupId": Value.int(Int64($0))] }))
            #expect(try await Plain.requests(site, containing: tag).count == 5)
        }

        // MARK: - Authentication

        @Test(
            "credentials reach the server, and only there",
            arguments: [
                ("bearer", "auth: { bearer: \"${TOKEN}\" }", "authorization", "Bearer s3cret"),
                ("bearer", "headers: { Authorization: \"Bearer ${TOKEN}\" }", "authorization", "Bearer s3cret"),
                (
                    "basic", "auth: { basic: { user: alice, password: \"${TOKEN}\" } }", "authorization",
                    "Basic YWxpY2U6czNjcmV0"
                ),
                ("apikey", "auth: { api_key: { header: X-API-Key, value: \"${TOKEN}\" } }", "x-api-key", "s3cret"),
                ("apikey", "auth: { api_key: { param: api_key, value: \"${TOKEN}\" } }", "", "api_key=s3cret"),
            ])
        func credentials(scheme: String, option: String, header: String, expected: String) async throws {
            let site = try TestServers.fault()
            let path = "auth/\(marker())/\(scheme)"
            let harness = try FetchHarness(
                Self.mapping(site: site, path: path, source: option), environment: ["TOKEN": "s3cret"])
            try await harness.fetch(["Item"])
            #expect(harness.records("Item") == Self.items)
            let request = try #require(try await Plain.requests(site, containing: path).first)
            if header.isEmpty {
                #expect(request["path"]?.string?.hasSuffix(expected) == true)
            } else {
                #expect(request["headers"]?.object?[header]?.string == expected)
            }
            #expect(harness.fetchedOrigins.allSatisfy { !$0.contains("s3cret") })
        }

        @Test("wrong credentials fail at once with 401, the secret redacted everywhere")
        func wrongCredentials() async throws {
            let site = try TestServers.fault()
            let path = "auth/\(marker())/apikey"
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: path, source: "auth: { api_key: { param: api_key, value: \"${TOKEN}\" } }"),
                environment: ["TOKEN": "wrong-key"])
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(
                error.description
                    == "GET \(site.absoluteString)/\(path).json?api_key=***: fetching Item: HTTP 401 after 1 attempt: {\"error\": \"unauthorized\"}"
            )
            #expect(try await Plain.requests(site, containing: path).count == 1)
        }

        @Test("secrets in the URL and echoed in the body never reach the error")
        func redaction() async throws {
            let site = try TestServers.fault()
            let path = "notfound/\(marker())"
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: path,
                    source:
                        "auth: { api_key: { param: key, value: \"${TOKEN}\" } }\nparams: { session: \"${SESSION_TOKEN}\", plain: visible }"
                ),
                environment: ["TOKEN": "k3y/with space", "SESSION_TOKEN": "sess-42"])
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            let text = error.description
            #expect(!text.contains("k3y") && !text.contains("sess-42"))
            #expect(
                text.hasPrefix(
                    "GET \(site.absoluteString)/\(path).json?session=***&plain=visible&key=***: fetching Item: HTTP 404 after 1 attempt: "
                ))
            #expect(text.contains("\"path\": \"/\(path).json?session=***&plain=visible&key=***\""))
        }

        // MARK: - Retries

        @Test("503 is retried after Retry-After's seconds, with a note per retry")
        func retryAfterSeconds() async throws {
            let site = try TestServers.fault()
            let path = "flaky/\(marker())"
            let harness = try FetchHarness(Self.mapping(site: site, path: path))
            try await harness.fetch(["Item"])
            #expect(harness.records("Item") == Self.items)
            #expect(harness.waits == [.seconds(1), .seconds(1)])
            #expect(harness.notes.count == 2)
            #expect(
                harness.notes.first?.hasPrefix("GET \(site.absoluteString)/\(path).json: HTTP 503 after 1 attempt: ")
                    == true)
            #expect(harness.notes.first?.hasSuffix("retry 1 of 3 in 1.00 s") == true)
            #expect(try await Plain.requests(site, containing: path).count == 3)
        }

        @Test("429 with an HTTP-date Retry-After waits until that date")
        func retryAfterDate() async throws {
            let site = try TestServers.fault()
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            let path = "ratelimit/\(marker())"
            // 1_700_000_007 is Tue, 14 Nov 2023 22:13:27 GMT.
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: path, source: "params: { retry_after: \"Tue, 14 Nov 2023 22:13:27 GMT\" }"))
            try await harness.fetch(["Item"], now: now)
            #expect(harness.records("Item") == Self.items)
            #expect(harness.waits == [.seconds(7)])
        }

        @Test("without Retry-After the waits grow exponentially with jitter")
        func backoff() async throws {
            let site = try TestServers.fault()
            let path = "flaky/\(marker())"
            let harness = try FetchHarness(
                Self.mapping(site: site, path: path, source: "params: { retry_after: none, fail: 3 }"))
            let started = ContinuousClock.now
            try await harness.fetch(["Item"], realWait: .seconds(1))
            let waits = harness.waits
            try #require(waits.count == 3)
            #expect(waits[0] >= .milliseconds(25) && waits[0] <= .milliseconds(50))
            #expect(waits[1] >= .milliseconds(50) && waits[1] <= .milliseconds(100))
            #expect(waits[2] >= .milliseconds(100) && waits[2] <= .milliseconds(200))
            #expect(ContinuousClock.now - started >= waits.reduce(.zero, +))
        }

        @Test("retries stop at the limit; the error names the status and the body", arguments: [0, 2])
        func retryLimit(retries: Int) async throws {
            let site = try TestServers.fault()
            let path = "flaky/\(marker())"
            let harness = try FetchHarness(
                Self.mapping(site: site, path: path, source: "retries: \(retries)\nparams: { fail: 9, retry_after: 0 }")
            )
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            let attempts = retries + 1
            #expect(error.origin == "GET \(site.absoluteString)/\(path).json?fail=9&retry_after=0")
            #expect(
                error.message
                    == "fetching Item: HTTP 503 after \(attempts) attempt\(attempts == 1 ? "" : "s"): {\"error\": \"Service Unavailable\", \"attempt\": \(attempts)}"
            )
            #expect(try await Plain.requests(site, containing: path).count == attempts)
        }

        @Test("404 and other 4xx fail at once", arguments: ["notfound/x", "status/400", "status/403", "status/422"])
        func clientErrors(route: String) async throws {
            let site = try TestServers.fault()
            let path = "\(route)/\(marker())"
            let harness = try FetchHarness(Self.mapping(site: site, path: path))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            let status = route.hasPrefix("notfound") ? "404" : String(route.dropFirst("status/".count))
            #expect(error.message.hasPrefix("fetching Item: HTTP \(status) after 1 attempt: {"))
            #expect(try await Plain.requests(site, containing: path).count == 1)
            #expect(harness.waits.isEmpty)
        }

        // MARK: - Broken connections and answers

        @Test("a server that does not answer in time times out, retried, then fails")
        func timeout() async throws {
            let site = try TestServers.fault()
            let path = "slow/\(marker())"
            let harness = try FetchHarness(
                Self.mapping(site: site, path: path, source: "timeout: 0.3\nretries: 1\nparams: { seconds: 10 }"))
            let started = ContinuousClock.now
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(
                error.description
                    == "GET \(site.absoluteString)/\(path).json?seconds=10: fetching Item: timed out after 2 attempts")
            // Two attempts of 0.3 s; waiting for the answers would take 20 s (slack for a loaded machine).
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(600) && elapsed < .seconds(8))
        }

        @Test("a dropped connection is retried, then fails naming the URL")
        func droppedConnection() async throws {
            let site = try TestServers.fault()
            let path = "drop/\(marker())"
            let harness = try FetchHarness(Self.mapping(site: site, path: path, source: "retries: 1"))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.origin == "GET \(site.absoluteString)/\(path).json")
            #expect(error.message.hasPrefix("fetching Item: connection lost ("))
            #expect(error.message.hasSuffix(") after 2 attempts"))
            #expect(try await Plain.requests(site, containing: path).count == 2)
        }

        @Test("a closed port cannot connect, retried, then fails")
        func closedPort() async throws {
            let harness = try FetchHarness(
                Self.mapping(site: URL(string: "http://127.0.0.1:9")!, path: "items", source: "retries: 2"))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.origin == "GET http://127.0.0.1:9/items.json")
            #expect(error.message.hasPrefix("fetching Item: cannot connect ("))
            #expect(error.message.hasSuffix(") after 3 attempts"))
            #expect(harness.waits.count == 2)
        }

        @Test("invalid JSON fails naming the URL and the position")
        func invalidJSON() async throws {
            let site = try TestServers.fault()
            let path = "bad/\(marker())"
            let harness = try FetchHarness(Self.mapping(site: site, path: path))
            let error = try await #require(throws: FetchError.self) { try await harness.fetch(["Item"]) }
            #expect(error.origin == "GET \(site.absoluteString)/\(path).json")
            #expect(error.message.hasPrefix("fetching Item: HTTP 200 with invalid JSON at line 1, column "))
            #expect(error.message.hasSuffix(#": [{"id": 1, "name": "Item 1"}, {"id": 2, "na"#))
            #expect(harness.payloads.isEmpty)
        }
    }
}
