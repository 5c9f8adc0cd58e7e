import Foundation
import RMap
import Testing

@testable import RMapHTTP

extension DjangoServerSuites {
    /// The http source against Django REST framework's paginators and errors.
    @Suite("HTTP source against Django")
    struct DjangoPagingTests {
        static func people(site: URL, source: String) -> String {
            """
            rmap: 1
            source:
              plugin: http
              site: \(site.absoluteString)/page
              suffix: /
              paginate: page
              page_size: 5
              size_param: page_size
            \(source.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
            entities:
              Person:
                path: people
                records: results
                attributes: { id: int, firstName: string }
            """
        }

        /// The logged requests for `/page/people/`, as `page=n status`.
        static func pages(_ site: URL) async throws -> [String] {
            let log = try await Plain.json(site.appendingPathComponent("_requests"))
            return (log.array ?? []).compactMap(\.object).filter {
                $0["path"]?.string?.hasPrefix("/page/people/?") ?? false
            }.map { entry in
                let page = entry["path"]?.string?.components(separatedBy: "page=").last ?? ""
                return "page=\(page) \(entry["status"].map(JSONWriter.serialize) ?? "")"
            }
        }

        @Test("paginate: page, one page at a time: DRF's 404 'Invalid page.' after a full last page ends the index")
        func pastTheEnd() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            let harness = try FetchHarness(Self.people(site: site, source: "concurrency: 1"))
            try await harness.fetch(["Person"])
            #expect(harness.records("Person").count == 25)
            #expect(try await Self.pages(site) == (1...5).map { "page=\($0) 200" } + ["page=6 404"])
        }

        @Test("paginate: page with a count: the other pages at once, none past the end")
        func concurrentPages() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            let harness = try FetchHarness(Self.people(site: site, source: "concurrency: 4"))
            try await harness.fetch(["Person"])
            #expect(
                byID(harness.records("Person")).compactMap { $0.object?["id"] } == (1...25).map { .number("\($0)") })
            let pages = try await Self.pages(site)
            #expect(pages.first == "page=1 200")
            #expect(Set(pages) == Set((1...5).map { "page=\($0) 200" }))
            #expect(pages.count == 5)
            #expect(
                harness.events.contains { event in
                    if case .expected(_, 5, .pages) = event { return true }
                    return false
                })
        }
    }
}
