import Foundation
import RMap
import Testing

@testable import RMapHTTP

extension FaultServerSuites {
    /// The HTTP client as a pusher uses it: writes with JSON bodies, `Location`,
    /// `422` bodies, and retries that never repeat a write the server may have done.
    @Suite("HTTP client")
    struct HTTPClientTests {
        /// A client whose retry waits are recorded, not slept.
        static func client(retries: Int = 2, auth: HTTPAuth? = nil) -> HTTPClient {
            HTTPClient(auth: auth, retry: RetryPolicy(retries: retries, baseDelay: .milliseconds(1), sleep: { _ in }))
        }

        @Test("POST sends the JSON body; an empty 201 names the new object in Location")
        func createWithLocation() async throws {
            let site = try TestServers.fault()
            let path = "empty/\(marker())"
            let url = site.appendingPathComponent(path)
            let body = JSONValue.object(
                JSONObject([("item", .object(JSONObject([("name", .string("Ñame & \"quoted\""))])))]))
            let client = Self.client()
            let response = try await client.send(HTTPRequest(.post, url: url, json: body))
            #expect(response.status == 201)
            #expect(response.body.isEmpty)
            let location = try #require(response.location)
            #expect(location.absoluteString.hasPrefix("\(url.absoluteString)/"))
            #expect(Int(location.lastPathComponent).map { $0 > 1000 } == true)
            let logged = try #require(try await Plain.requests(site, containing: path).first)
            #expect(logged["method"]?.string == "POST")
            #expect(logged["headers"]?.object?["content-type"]?.string == "application/json")
            #expect(logged["headers"]?.object?["accept"]?.string == "application/json")
            #expect(try JSONReader.parse(logged["body"]?.string ?? "", origin: "log") == body)
        }

        @Test("PUT, PATCH and DELETE reach the server with their method", arguments: [HTTPMethod.put, .patch, .delete])
        func writes(method: HTTPMethod) async throws {
            let site = try TestServers.fault()
            let path = "empty/\(marker())/7"
            let response = try await Self.client().send(
                HTTPRequest(
                    method, url: site.appendingPathComponent(path), json: .object(JSONObject([("a", .number("1"))]))))
            #expect(response.status == 204)
            #expect(try await Plain.requests(site, containing: path).map { $0["method"]?.string } == [method.rawValue])
        }

        @Test("422 is an error that carries the server's validation errors, sent once")
        func unprocessable() async throws {
            let site = try TestServers.fault()
            let path = "status/422/\(marker())"
            let url = site.appendingPathComponent(path)
            let client = Self.client()
            let request = HTTPRequest(.put, url: url, json: .object(JSONObject()))
            let error = try await #require(throws: HTTPError.self) { try await client.send(request) }
            #expect(error.reason == .status(422))
            let response = try #require(error.response)
            let errors = try JSONReader.parse(response.body, origin: "422")
            #expect(errors == .object(JSONObject([("name", .array([.string("can't be blank")]))])))
            // The server must see the write once; a connection that failed before reaching it may add an attempt.
            #expect(error.description.hasPrefix("PUT \(url.absoluteString): HTTP 422 after "))
            #expect(error.description.hasSuffix(#": {"name": ["can't be blank"]}"#))
            #expect(try await Plain.requests(site, containing: path).count == 1)
        }

        @Test(
            "writes the server may have done are not repeated; 503 and 429 are",
            arguments: [
                (HTTPMethod.post, "status/500", 1), (.patch, "status/502", 1), (.put, "status/500", 3),
                (.delete, "status/504", 3), (.post, "flaky", 3), (.post, "ratelimit", 3),
            ])
        func retriedWrites(method: HTTPMethod, route: String, attempts: Int) async throws {
            let site = try TestServers.fault()
            let path = "\(route)/\(marker())"
            let url = QueryEncoding.appending(
                [("fail", "9"), ("retry_after", "0")], to: site.appendingPathComponent(path))
            let error = try await #require(throws: HTTPError.self) {
                try await Self.client().send(HTTPRequest(method, url: url))
            }
            // What the server saw is exact; a connection that failed before reaching it may add an attempt.
            #expect(try await Plain.requests(site, containing: path).count == attempts)
            #expect(error.attempts >= attempts)
        }

        @Test("a timed-out POST is not sent again; a timed-out GET is")
        func timedOutWrites() async throws {
            let site = try TestServers.fault()
            for (method, attempts) in [(HTTPMethod.post, 1), (.get, 3)] {
                let path = "slow/\(marker())"
                var client = Self.client()
                client.timeout = .milliseconds(200)
                let url = QueryEncoding.appending([("seconds", "1")], to: site.appendingPathComponent(path))
                let error = try await #require(throws: HTTPError.self) {
                    try await client.send(HTTPRequest(method, url: url))
                }
                #expect(error.reason == .timeout)
                #expect(error.attempts == attempts)
            }
        }

        @Test("the auth's secrets are redacted from errors even when the server echoes them")
        func redactsAuth() async throws {
            let site = try TestServers.fault()
            let path = "notfound/\(marker())"
            let client = Self.client(auth: .apiKey(.param("token"), value: "t0p-secret"))
            let error = try await #require(throws: HTTPError.self) {
                try await client.send(HTTPRequest(.get, url: site.appendingPathComponent(path)))
            }
            #expect(!error.description.contains("t0p-secret"))
            #expect(error.bodyPrefix == "{\"error\": \"not found\", \"path\": \"/\(path)?token=***\"}")
        }
    }
}

/// Parsing that needs no server: `Link` headers, `Retry-After`, query encoding, redaction.
@Suite("HTTP parsing")
struct HTTPParsingTests {
    static let base = URL(string: "https://api.example.com/repos/a/b/issues?per_page=3")!

    @Test(
        "Link header relations",
        arguments: [
            (
                #"<https://api.github.com/repositories/1/issues?per_page=3&page=2>; rel="next", <https://api.github.com/repositories/1/issues?per_page=3&page=5>; rel="last""#,
                [
                    "next": "https://api.github.com/repositories/1/issues?per_page=3&page=2",
                    "last": "https://api.github.com/repositories/1/issues?per_page=3&page=5",
                ]
            ),
            (#"</items?page=2>; rel=next"#, ["next": "https://api.example.com/items?page=2"]),
            (
                #"<page3>; title="a, b"; rel="next last""#,
                ["next": "https://api.example.com/repos/a/b/page3", "last": "https://api.example.com/repos/a/b/page3"]
            ),
            (
                #"<https://x.test/1>; rel="prev", <https://x.test/2>; REL="Next""#,
                ["prev": "https://x.test/1", "next": "https://x.test/2"]
            ),
            ("", [:]),
        ])
    func links(header: String, expected: [String: String]) {
        #expect(LinkHeader.parse(header, base: Self.base).mapValues(\.absoluteString) == expected)
    }

    @Test(
        "Retry-After seconds and HTTP dates",
        arguments: [
            ("120", Duration.seconds(120)), ("0", .zero), ("1.5", .milliseconds(1500)),
            ("Tue, 14 Nov 2023 22:13:30 GMT", .seconds(10)), ("Tuesday, 14-Nov-23 22:13:25 GMT", .seconds(5)),
            ("Tue Nov 14 22:13:21 2023", .seconds(1)), ("Tue, 14 Nov 2023 22:00:00 GMT", .zero),
        ])
    func retryAfter(value: String, expected: Duration) {
        #expect(RetryAfter.parse(value, now: Date(timeIntervalSince1970: 1_700_000_000)) == expected)
    }

    @Test("an unreadable Retry-After falls back to backoff")
    func unreadableRetryAfter() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100))
        #expect(RetryAfter.parse("soon", now: Date()) == nil)
        let wait = policy.delay(beforeRetry: 2, retryAfter: "soon")
        #expect(wait >= .milliseconds(100) && wait <= .milliseconds(200))
        #expect(policy.delay(beforeRetry: 1, retryAfter: "86400") == .seconds(60))
    }

    @Test("query values are percent-encoded so that servers read them back exactly")
    func queryEncoding() {
        let url = QueryEncoding.appending(
            [("order", "first_name asc,email desc"), ("q", "a+b&c=d/é"), ("id[]", "1")],
            to: URL(string: "http://h/p.json")!)
        #expect(
            url.absoluteString
                == "http://h/p.json?order=first_name%20asc,email%20desc&q=a%2Bb%26c%3Dd%2F%C3%A9&id%5B%5D=1")
        #expect(QueryEncoding.appending([("b", "2")], to: url).absoluteString.hasSuffix("&id%5B%5D=1&b=2"))
    }

    @Test("redaction hides secrets raw and percent-encoded, longest first")
    func redaction() {
        let redactor = Redactor(secrets: ["ab", "abc def", ""])
        #expect(redactor.redact("x=abc def&y=abc%20def&z=ab") == "x=***&y=***&z=***")
        #expect(redactor.redact("nothing here") == "nothing here")
    }

    @Test("headers are looked up and replaced without regard to case")
    func headers() {
        var headers = HTTPHeaders([("Accept", "application/json"), ("X-One", "1")])
        headers["accept"] = "text/plain"
        #expect(headers.fields.map(\.name) == ["accept", "X-One"])
        #expect(headers["ACCEPT"] == "text/plain")
        #expect(headers.merging(HTTPHeaders(["x-one": "2"]))["X-One"] == "2")
        headers["x-one"] = nil
        #expect(headers.fields.count == 1)
    }
}
