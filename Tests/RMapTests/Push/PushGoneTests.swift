import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

/// A `DELETE` of an object the server no longer has counts as done, against the fault server
/// (which answers any status the path names).
@Suite("Push deletions of objects already gone")
struct PushGoneTests {
    @Test("a DELETE answered 404 or 410 Gone drops the base and leaves nothing pending", arguments: [404, 410])
    func gone(status: Int) async throws {
        let site = try TestServers.fault()
        let marker = marker()
        let mapping = """
            rmap: 1
            source: { plugin: http, site: \(site.absoluteString), retries: 0 }
            entities:
              Task:
                path: status/\(status)/\(marker)
                attributes: { id: int, title: string }
            """
        let registry = PluginRegistry()
        registry.registerHTTP()
        let model = try MappingLoader(catalog: registry.catalog).load(documents: [("gone.yml", mapping)])
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("gone.sqlite").path)
        try ServerRows.write([("Task", ["id": .int(7), "title": .string("Old")])], model: model, into: store)
        let sync = SyncStore(store: store, model: model)
        try sync.delete(try #require(try sync.objects(of: "Task").first))

        let report = try await Pusher(model: model).push(sync)
        #expect(report == PushReport(sent: 1, acknowledged: 1, pending: []))
        #expect(try sync.changes().isEmpty)
        let requests = try await Plain.requests(site, containing: marker)
        #expect(requests.map { $0["method"]?.string } == ["DELETE"])
    }
}
