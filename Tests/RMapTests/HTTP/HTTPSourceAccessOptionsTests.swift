import Foundation
import RMap
import Testing

@testable import RMapHTTP

/// `auth.oauth2`, `rate_limit`, `max_wait` and `window` are checked when the source is made, each
/// error at the offending node's `file:line:col`, with a suggestion for a misspelt key.
@Suite("HTTP source options: OAuth2, budgets, windows")
struct HTTPSourceAccessOptionsTests {
    static let oauth2 = "auth: { oauth2: { token_url: http://127.0.0.1:1/o/token/, client_id: c, client_secret: s"

    @Test(
        "malformed options fail at their mark",
        arguments: [
            (
                oauth2 + ", scop: read } }", "scop",
                "unknown key 'scop' in 'auth.oauth2' (expected client_id, client_secret, grant, refresh_token, scope, token_url) (did you mean 'scope'?)"
            ),
            ("auth: { oauth2: { client_id: c, client_secret: s } }", "{ client_id", "'auth.oauth2' needs 'token_url'"),
            (
                "auth: { oauth2: { token_url: http://auth.example.com/token, client_id: c, client_secret: s } }",
                "http://auth",
                "'auth.oauth2.token_url' must be an https URL, or on the site's origin (http://127.0.0.1:1), found 'http://auth.example.com/token'"
            ),
            (
                "auth: { oauth2: { token_url: http://127.0.0.1:2/token, client_id: c, client_secret: s } }",
                "http://127.0.0.1:2", "'auth.oauth2.token_url' must be an https URL, or on the site's origin"
            ),
            (
                "auth: { oauth2: { token_url: https://a.test/t, client_secret: s } }", "{ token_url",
                "'auth.oauth2' needs 'client_id'"
            ),
            (
                "auth: { oauth2: { token_url: https://a.test/t, client_id: c } }", "{ token_url",
                "'auth.oauth2' with grant client_credentials needs 'client_secret'"
            ),
            (
                oauth2 + ", grant: password } }", "password",
                "unknown grant 'password' in 'auth.oauth2' (expected client_credentials or refresh_token)"
            ),
            (
                oauth2 + ", grant: refresh_tokn } }", "refresh_tokn",
                "unknown grant 'refresh_tokn' in 'auth.oauth2' (expected client_credentials or refresh_token) (did you mean 'refresh_token'?)"
            ),
            (
                oauth2 + ", grant: refresh_token } }", "{ token_url",
                "'auth.oauth2' with grant refresh_token needs 'refresh_token'"
            ),
            (oauth2 + ", refresh_token: r } }", "r }", "'auth.oauth2.refresh_token' goes with 'grant: refresh_token'"),
            ("auth: { oauth2: [a] }", "[a]", "'auth.oauth2' must be a mapping"),
            (
                "auth: { oauth22: x }", "oauth22",
                "unknown auth scheme 'oauth22' (expected basic, bearer, api_key or oauth2) (did you mean 'oauth2'?)"
            ),
            (
                "rate_limit: 10", "10",
                "'rate_limit' must be a mapping, e.g. 'rate_limit: {requests: 10, per: 1s}', found a scalar"
            ),
            (
                "rate_limit: { requests: 10, pre: 1s }", "pre",
                "unknown key 'pre' in 'rate_limit' (expected per, requests) (did you mean 'per'?)"
            ),
            ("rate_limit: { requests: 10 }", "{ requests", "'rate_limit' needs 'per'"),
            (
                "rate_limit: { requests: 0, per: 1s }", "0",
                "'rate_limit.requests' must be a whole number greater than 0"
            ),
            (
                "rate_limit: { requests: 5, per: 0s }", "0s",
                "'rate_limit.per' must be a duration greater than 0 such as 500ms, 1s, 15m, 2h or 7d, found '0s'"
            ),
            ("rate_limit: { requests: 5, per: second }", "second", "'rate_limit.per' must be a duration"),
            ("max_wait: soon", "soon", "'max_wait' must be a duration such as 500ms, 1s, 15m, 2h or 7d, found 'soon'"),
            (
                "window: { from: a, to: b, start: \"2024-01-01T00:00:00Z\", stpe: 7d }", "stpe",
                "unknown key 'stpe' in 'window' (expected from, start, step, to) (did you mean 'step'?)"
            ),
            ("window: { from: a, to: b, start: \"2024-01-01T00:00:00Z\" }", "{ from", "'window' needs 'step'"),
            (
                "window: { from: a, to: b, start: yesterday, step: 7d }", "yesterday",
                "'window.start' must be an ISO 8601 time such as 2024-01-01T00:00:00Z, found 'yesterday'"
            ),
            (
                "window: { from: a, to: a, start: 2024-01-01, step: 7d }", "{ from",
                "'window.from' and 'window.to' must be different parameters, both are 'a'"
            ),
            (
                "window: { from: a, to: b, start: 2024-01-01, step: 500ms }", "500ms",
                "'window.step' must be at least 1s"
            ),
            (
                "window: { from: body.a, to: b, start: 2024-01-01, step: 1d }", "body.a",
                "'body.a' goes in the body, so it needs 'method: post'"
            ),
        ])
    func malformed(option: String, at node: String, message: String) throws {
        let error = try #require(throws: PluginError.self) { try HTTPSourceOptionsTests.make(option) }
        let column = try #require(option.range(of: node)).lowerBound.utf16Offset(in: option) + 3
        #expect(error.description.hasPrefix("test.yml:5:\(column): http source: \(message)"), "\(error)")
    }

    @Test("good options are read as written")
    func read() throws {
        let model = try HTTPSourceOptionsTests.model(
            "auth: { oauth2: { token_url: https://auth.test/t, client_id: c, grant: refresh_token, refresh_token: r, scope: read } }\n  rate_limit: { requests: 10, per: 1.5s }\n  max_wait: 2m\n  window: { from: updated_after, to: updated_before, start: \"2024-01-01T02:00:00+02:00\", step: 7d }"
        )
        let settings = try HTTPSourceSettings(try #require(model.entities.first?.source))
        #expect(
            settings.oauth2
                == OAuth2Grant(
                    tokenURL: URL(string: "https://auth.test/t")!, clientID: "c", clientSecret: nil, scope: "read",
                    kind: .refreshToken("r")))
        #expect(settings.pacing.rateLimit == RateLimit(requests: 10, per: .milliseconds(1500)))
        #expect(settings.pacing.maxWait == .seconds(120))
        let window = try #require(settings.window)
        #expect(window.from == .query("updated_after") && window.to == .query("updated_before"))
        #expect(DateWindow.text(window.start) == "2024-01-01T00:00:00Z")
        #expect(window.step == .seconds(7 * 86400))
    }

    @Test("windows run from the start in steps up to the run's start, the last one shorter")
    func windows() throws {
        let model = try HTTPSourceOptionsTests.model(
            "window: { from: after, to: before, start: 2024-01-01, step: 10d }")
        let config = try #require(model.entities.first?.source)
        let window = try #require(try HTTPSourceSettings(config).window)
        let end = try #require(DateWindow.date("2024-01-25T12:00:00.750Z"))
        var lower = window.resume(nil)
        var shown: [String] = []
        while let (from, to) = window.window(from: lower, until: end) {
            shown.append("\(DateWindow.text(from))..\(DateWindow.text(to))")
            lower = to
        }
        #expect(
            shown == [
                "2024-01-01T00:00:00Z..2024-01-11T00:00:00Z", "2024-01-11T00:00:00Z..2024-01-21T00:00:00Z",
                "2024-01-21T00:00:00Z..2024-01-25T12:00:00Z",
            ])
        // The next run resumes where the last window ended, never before the start.
        let stored = RunStateEntry(scope: DateWindow.scope, key: "k", value: .string("2024-01-25T12:00:00Z"))
        #expect(DateWindow.text(window.resume(stored)) == "2024-01-25T12:00:00Z")
        let early = RunStateEntry(scope: DateWindow.scope, key: "k", value: .string("2023-06-01T00:00:00Z"))
        #expect(DateWindow.text(window.resume(early)) == "2024-01-01T00:00:00Z")
        let request = window.request(lower, end, base: URL(string: "https://api.test/people?limit=5")!, body: nil)
        #expect(
            request.url.absoluteString
                == "https://api.test/people?limit=5&after=2024-01-25T12%3A00%3A00Z&before=2024-01-25T12%3A00%3A00Z")
    }

    @Test("the registry's graphql source lists its option keys; a misspelt one gets a hint")
    func graphqlKeys() throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        #expect(
            registry.catalog.sources["graphql"]
                == [
                    "endpoint", "headers", "auth", "timeout", "retries", "concurrency", "page_size", "allow_hosts",
                    "max_body_bytes", "max_pages", "on_status", "rate_limit", "max_wait",
                ])
        let yaml =
            "rmap: 1\nsource:\n  plugin: graphql\n  endpont: https://a.test/graphql\nentities:\n  Item:\n    attributes: { id: int }\n"
        let error = try #require(throws: MappingError.self) {
            try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [("test.yml", yaml)])
        }
        #expect(error.description.contains("test.yml:4:3: unknown key 'endpont'"), "\(error)")
        #expect(error.description.contains("did you mean 'endpoint'?"), "\(error)")
    }

    @Test(
        "a graphql entity needs a query and records; an http entity has no query",
        arguments: [
            ("graphql", "records: data.items.nodes", "test.yml:5:3: graphql source: 'Item' needs 'query:'"),
            (
                "graphql", "query: \"{ items { nodes { id } } }\"",
                "test.yml:5:3: graphql source: 'Item' needs 'records:'"
            ),
            (
                "http", "query: \"{ items { nodes { id } } }\"",
                "test.yml:5:3: http source: 'query' of 'Item' is for entities of a graphql source"
            ),
        ])
    func entityKeys(plugin: String, key: String, message: String) throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let place = plugin == "http" ? "site" : "endpoint"
        let yaml =
            "rmap: 1\nsource: { plugin: \(plugin), \(place): https://a.test/graphql }\n\nentities:\n  Item:\n    \(key)\n    attributes: { id: int }\n"
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [("test.yml", yaml)])
        let config = try #require(model.entities.first?.source)
        let error = try #require(throws: PluginError.self) {
            _ = try registry.makeSource(config, model: model)
        }
        #expect(error.description.hasPrefix(message), "\(error)")
    }
}
