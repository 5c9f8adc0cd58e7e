import Foundation
import RMap
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Django test app (Tests/Fixtures/django-app) answers as its README says: the shapes the
/// http source's paging tests and examples rely on come from DRF itself.
extension DjangoServerSuites {
    @Suite("Django test app")
    struct DjangoAppTests {
        @Test("each prefix pages the seeded CRM with its DRF paginator")
        func paginators() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)  // the seed: other suites write to the app
            let page = try await Plain.json(site.appendingPathComponent("page/people/"))
            #expect(page.object?["count"] == .number("25"))
            #expect(page.object?["next"]?.string == site.absoluteString + "/page/people/?page=2")
            let offset = try await Plain.json(URL(string: site.absoluteString + "/offset/projects/?limit=5&offset=55")!)
            #expect(offset.object?["count"] == .number("60"))
            #expect(offset.object?["results"]?.array?.count == 5)
            #expect(offset.object?["next"] == .null)
            let cursor = try await Plain.json(site.appendingPathComponent("cursor/tasks/"))
            #expect(cursor.object?["results"]?.array?.count == 10)
            #expect(cursor.object?["next"]?.string?.contains("cursor=") == true)
        }

        @Test("a page past the end, a missing parent and a missing token answer DRF's errors")
        func errors() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            #expect(try await status(site, "page/people/?page=6&page_size=5") == 404)
            #expect(try await status(site, "page/people/99/projects/") == 404)
            #expect(try await status(site, "page/people/25/projects/") == 200)
            #expect(try await status(site, "oauth/people/") == 401)
        }

        @Test("the throttled prefix answers 429 with Retry-After past five requests a second")
        func throttle() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            // Bursts of ten at once, so that a slow machine (a sanitizer's build) still sends more
            // than five within one of the server's seconds.
            var answers: [HTTPURLResponse] = []
            for _ in 0..<5 where !answers.contains(where: { $0.statusCode == 429 }) {
                answers += try await withThrowingTaskGroup(of: HTTPURLResponse.self) { group in
                    for _ in 0..<10 { group.addTask { try await response(site, "throttled/people/") } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(Set(answers.map(\.statusCode)).isSubset(of: [200, 429]))
            #expect(answers.filter { $0.statusCode == 200 }.count >= 5)
            let refused = try #require(answers.first { $0.statusCode == 429 })
            #expect(Int(refused.value(forHTTPHeaderField: "Retry-After") ?? "") != nil)
        }

        private func status(_ site: URL, _ path: String) async throws -> Int {
            try await response(site, path).statusCode
        }

        private func response(_ site: URL, _ path: String) async throws -> HTTPURLResponse {
            let (_, response) = try await RepeatableRequest.data(from: URL(string: site.absoluteString + "/" + path)!)
            return try #require(response as? HTTPURLResponse)
        }
    }
}
