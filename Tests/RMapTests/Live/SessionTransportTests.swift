import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

extension FaultServerSuites {
    /// `Session.save()` sends through the transport `rmap push` uses (libcurl, connections kept
    /// for the next request), against the fault server's pass-through `/rails` route, which logs
    /// each request's header fields and counts the TCP connections (issue #31, item 6).
    @Suite("Live session transport")
    struct SessionTransportTests {
        /// The header field names of the `POST`s logged under `marker`, idempotency key aside.
        private func postHeaders(_ site: URL, _ marker: String) async throws -> [Set<String>] {
            try await Plain.requests(site, containing: marker).filter { $0["method"]?.string == "POST" }.map {
                Set(($0["headers"]?.object?.members ?? []).map(\.0)).subtracting(["idempotency-key"])
            }
        }

        @Test("save of 200 new objects sends what rmap push sends, over at most 4 kept-alive connections")
        func sameTransportAsPush() async throws {
            let site = try TestServers.fault()
            let model = PushKeepAliveTests.Fixture.model
            let directory = try StoreFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }

            let pushed = RMapTests.marker()
            let pushModel = try model(site, pushed)
            let sync = SyncStore(
                store: try SQLiteStore(path: directory.appendingPathComponent("push.sqlite").path), model: pushModel)
            for number in 1...200 { try sync.insert("Item", ["name": .string("New \(number)")]) }
            #expect(try await Pusher(model: pushModel).push(sync).isComplete)

            let saved = RMapTests.marker()
            let session = Session(
                model: try model(site, saved),
                store: try SQLiteStore(path: directory.appendingPathComponent("live.sqlite").path))
            for number in 1...200 { _ = try await session.insert("Item", ["name": "New \(number)"]) }
            let report = try await session.save()

            #expect(report.push == PushReport(sent: 200, acknowledged: 200, pending: []))
            #expect(report.created.count == 200)
            let pushHeaders = try await postHeaders(site, pushed)
            let saveHeaders = try await postHeaders(site, saved)
            #expect(saveHeaders.count == 200 && Set(saveHeaders).count == 1)
            #expect(Set(saveHeaders) == Set(pushHeaders), "save \(Set(saveHeaders)), push \(Set(pushHeaders))")
            let counts = try await Plain.json(site.appendingPathComponent("_connections"))
            var connections = 0
            if case .number(let text)? = counts.object?["rails/\(saved)"] { connections = Int(text) ?? 0 }
            #expect((1...4).contains(connections), "200 requests over \(connections) connections")
        }
    }
}
