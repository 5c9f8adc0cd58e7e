import Foundation
import RMap
import RMapSQLite
import Testing

@testable import RMapHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DjangoServerSuites {
    /// OAuth2 against the Django app's django-oauth-toolkit provider: tokens fetched once and
    /// shared, renewed before they expire and after a 401, refresh tokens rotated in memory,
    /// `rmap push` with the same tokens, and no token or secret anywhere a user or a file could see.
    @Suite("OAuth2 against Django")
    struct DjangoOAuth2Tests {
        static let example = TestServers.repositoryRoot.appendingPathComponent("examples/django/oauth2.yml").path

        static func environment(_ django: TestServers.Django) -> [String: String?] {
            [
                "DJANGO_URL": django.url.absoluteString, "DJANGO_CLIENT_ID": django.clientID,
                "DJANGO_CLIENT_SECRET": django.clientSecret,
            ]
        }

        /// `POST path` to the app (test control).
        static func post(_ site: URL, _ path: String) async throws {
            var request = URLRequest(url: URL(string: site.absoluteString + path)!)
            request.httpMethod = "POST"
            _ = try await RepeatableRequest.data(for: request)
        }

        /// The access tokens the app saw, from the `Authorization` headers of its request log.
        static func bearerTokens(_ site: URL) async throws -> Set<String> {
            let log = try await Plain.json(site.appendingPathComponent("_requests"))
            return Set(
                (log.array ?? []).compactMap { $0.object?["headers"]?.object?["authorization"]?.string }
                    .filter { $0.hasPrefix("Bearer ") }.map { String($0.dropFirst(7)) })
        }

        /// Every file under `directory`, as text.
        static func files(under directory: URL) -> [(path: String, text: String)] {
            let paths = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
            return paths.compactMap { path in
                let url = directory.appendingPathComponent(path)
                return FileManager.default.contents(atPath: url.path).map {
                    (path, String(decoding: $0, as: UTF8.self))
                }
            }
        }

        @Test("push sends its changes with the same tokens; no token or secret is in the output, store or recording")
        func pushAndSecrets() async throws {
            let django = try TestServers.django()
            try await PushServer.reset(django.url)
            let directory = try TemporaryDirectory()
            let store = directory.url.appendingPathComponent("crm.sqlite").path
            let run = try await CLIRunner.run(
                ["run", Self.example, "--store", store, "--record", "exchanges"], in: directory.url,
                environment: Self.environment(django))
            #expect(run.status == 0, "\(run.stderr)")
            try SQLiteConnection(path: store).execute("UPDATE projects SET name = 'Renamed by rmap' WHERE id = 7")
            let push = try await CLIRunner.run(
                ["push", Self.example, "--store", store], in: directory.url, environment: Self.environment(django))
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stderr.contains("push: 1 sent, 1 acknowledged, 0 pending"), "\(push.stderr)")
            let log = try await PushServer.log(django.url)
            let patch = try #require(log.first { $0.method == "PATCH" })
            #expect(patch.line == #"PATCH /oauth/projects/7/ {"name":"Renamed by rmap"}"# && patch.status == 200)
            let project = try await Plain.json(django.url.appendingPathComponent("page/projects/7/"))
            #expect(project.object?["name"] == .string("Renamed by rmap"))

            let tokens = try await Self.bearerTokens(django.url)
            #expect(tokens.count == 2, "one token for the run, one for the push: \(tokens.count)")
            let secrets = tokens.union([django.clientSecret])
            var seen = [("run stdout", run.stdout), ("run stderr", run.stderr), ("push stdout", push.stdout)]
            seen += [("push stderr", push.stderr)]
            seen += Self.files(under: directory.url).map { ("file \($0.path)", $0.text) }
            #expect(seen.contains { $0.0 == "file exchanges/exchanges.jsonl" })
            for (place, text) in seen {
                for secret in secrets { #expect(!text.contains(secret), "a secret in \(place)") }
            }
        }

        // Each page's token is fresh when its request goes: the lifetime is slack for a loaded server
        // (with 3-second tokens, a sanitized run once had its first request answered 401 right after
        // its token). The 8 seconds between requests are longer than the lifetime, so a token taken
        // before the wait for the budget would expire on the way.
        @Test("a token that lives 6 seconds, requests 8 seconds apart: each goes with a token still good, none refused")
        func renewedBeforeExpiry() async throws {
            let django = try TestServers.django()
            try await PushServer.reset(django.url)
            try await Self.post(django.url, "/_oauth?expires_in=6")
            let harness = try FetchHarness(
                """
                rmap: 1
                source:
                  plugin: http
                  site: \(django.url.absoluteString)/oauth
                  suffix: /
                  auth: { oauth2: { token_url: "\(django.url.absoluteString)/o/token/", client_id: "${ID}", client_secret: "${SECRET}" } }
                  rate_limit: { requests: 1, per: 8s }
                  paginate: { next_url: next }
                  page_size: 50
                  size_param: page_size
                entities:
                  Task:
                    records: results
                    attributes: { id: int, title: string }
                """, environment: ["ID": django.clientID, "SECRET": django.clientSecret])
            let started = ContinuousClock.now
            try await harness.fetch(["Task"], realWait: .seconds(20))
            #expect(ContinuousClock.now - started > .seconds(16), "three pages, each waiting out the rate limit")
            #expect(harness.records("Task").count == 150)
            let log = try await PushServer.log(django.url)
            // A token taken before the wait for the budget would have expired on the way.
            #expect(log.filter { $0.path == "/o/token/" }.count == 3, "one token for each page: \(log)")
            #expect(log.allSatisfy { $0.status == 200 }, "\(log)")
        }

        @Test("a token the server no longer knows is answered 401: the client fetches another once, and goes on")
        func renewedAfter401() async throws {
            let django = try TestServers.django()
            try await PushServer.reset(django.url)
            let grant = OAuth2Grant(
                tokenURL: django.url.appendingPathComponent("o/token/"), clientID: django.clientID,
                clientSecret: django.clientSecret, scope: "read", kind: .clientCredentials)
            let session = OAuth2Session(grant: grant, client: HTTPClient(transport: CurlTransport()))
            let client = HTTPClient(
                auth: .oauth2(session), transport: CurlTransport(), scope: CredentialScope(site: django.url))
            let notes = Locked<[String]>([])
            let people = django.url.appendingPathComponent("oauth/people/")
            _ = try await client.send(HTTPRequest(.get, url: people))
            // The app forgets every token (and its log); rmap's is still good for 30 s by its clock.
            try await PushServer.reset(django.url)
            let page = URL(string: people.absoluteString + "?page=2")!
            let response = try await client.send(HTTPRequest(.get, url: page)) { note in
                notes.withLock { $0.append(note) }
            }
            #expect(response.status == 200)
            let log = try await PushServer.log(django.url)
            #expect(
                log.map { "\($0.method) \($0.path) \($0.status)" } == [
                    "GET /oauth/people/?page=2 401", "POST /o/token/ 200", "GET /oauth/people/?page=2 200",
                ])
            #expect(notes.withLock { $0 } == ["\(page.absoluteString): HTTP 401; fetching a new OAuth2 token"])
        }

        @Test("a refresh token the server rotates is used from memory; the next run's old one fails clearly")
        func refreshTokenRotation() async throws {
            let django = try TestServers.django()
            try await PushServer.reset(django.url)
            try await Self.post(django.url, "/_oauth?expires_in=1")
            let directory = try TemporaryDirectory()
            try """
            rmap: 1
            source:
              plugin: http
              site: ${DJANGO_URL}/oauth
              suffix: /
              auth:
                oauth2:
                  token_url: ${DJANGO_URL}/o/token/
                  client_id: ${DJANGO_CLIENT_ID}
                  client_secret: ${DJANGO_CLIENT_SECRET}
                  grant: refresh_token
                  refresh_token: ${DJANGO_REFRESH_TOKEN}
              rate_limit: { requests: 1, per: 700ms }
              paginate: { next_url: next }
              page_size: 10
              size_param: page_size
            entities:
              Person:
                records: results
                attributes: { id: int, firstName: string }
            """.write(to: directory.url.appendingPathComponent("refresh.yml"), atomically: true, encoding: .utf8)
            var environment = Self.environment(django)
            environment["DJANGO_REFRESH_TOKEN"] = django.refreshToken
            let arguments = ["run", "refresh.yml", "--store", "crm.sqlite"]
            let first = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("rotated the refresh token; the new one is kept in memory for this run only"))
            // Three pages 0.7 s apart outlive the one-second tokens: the second refresh used the rotated token.
            let refreshes = try await PushServer.log(django.url).filter { $0.path == "/o/token/" }
            #expect(refreshes.count >= 2 && refreshes.allSatisfy { $0.status == 200 }, "\(refreshes)")
            #expect(refreshes.first?.body.contains("refresh_token=\(django.refreshToken)") == true)
            #expect(refreshes.dropFirst().allSatisfy { !$0.body.contains(django.refreshToken) })
            let tokens = try await Self.bearerTokens(django.url)
            for text in [first.stdout, first.stderr] {
                #expect(!text.contains(django.refreshToken) && !tokens.contains { text.contains($0) })
            }

            let second = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(second.status == 1)
            #expect(
                second.stderr.contains(
                    "Error: POST \(django.url.absoluteString)/o/token/: fetching Person: HTTP 400 after 1 attempt: {\"error\": \"invalid_grant\"}"
                ),
                "\(second.stderr)")
            #expect(!second.stderr.contains(django.refreshToken))
            try await PushServer.reset(django.url)
        }
    }
}
