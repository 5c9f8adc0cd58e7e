import Foundation
import Testing

/// `rmap inspect` shows the OAuth2, budget and window keys and a GraphQL entity's query, with
/// the client secret and refresh token hidden and the site still readable.
@Suite("rmap inspect: OAuth2, budgets, windows, GraphQL")
struct InspectAccessKeysTests {
    @Test("the keys appear as written, secrets as ***")
    func keysShown() async throws {
        let directory = try TemporaryDirectory()
        try """
        rmap: 1
        source:
          plugin: http
          site: ${API_URL}
          auth:
            oauth2:
              token_url: ${API_URL}/oauth/token
              client_id: ${CLIENT_ID}
              client_secret: ${CLIENT_SECRET}
              grant: refresh_token
              refresh_token: ${REFRESH}
          rate_limit: { requests: 10, per: 1s }
          max_wait: 15m
          window: { from: updated_after, to: updated_before, start: "2024-01-01T00:00:00Z", step: 7d }
        entities:
          Task:
            attributes: { id: int }
          Person:
            source: { plugin: graphql, endpoint: "${API_URL}/graphql" }
            query: |
              query($after: String) {
                allPeople(after: $after) { edges { node { databaseId } } }
              }
            records: data.allPeople.edges.node
            attributes: { id: { type: int, key: databaseId } }
        """.write(to: directory.url.appendingPathComponent("t.yml"), atomically: true, encoding: .utf8)
        let environment = [
            "API_URL": "https://api.example.com", "CLIENT_ID": "client-7", "CLIENT_SECRET": "cs-s3cret",
            "REFRESH": "rt-s3cret",
        ]
        let result = try await CLIRunner.run(["inspect", "t.yml"], in: directory.url, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "source: http {site: https://api.example.com, auth: {oauth2: {token_url: https://api.example.com/oauth/token, client_id: ***, client_secret: ***, grant: refresh_token, refresh_token: ***}}, rate_limit: {requests: 10, per: 1s}, max_wait: 15m, window: {from: updated_after, to: updated_before, start: 2024-01-01T00:00:00Z, step: 7d}}"
            ), "\(result.stdout)")
        #expect(
            result.stdout.contains("source: graphql {endpoint: https://api.example.com/graphql}"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "query: query($after: String) { allPeople(after: $after) { edges { node { databaseId } } } }"),
            "\(result.stdout)")
        for secret in ["cs-s3cret", "rt-s3cret", "client-7"] { #expect(!result.stdout.contains(secret)) }
    }
}
