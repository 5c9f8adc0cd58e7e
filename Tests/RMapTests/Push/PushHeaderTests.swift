import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

/// `push: {idempotency_header: ...}`: loaded, checked, inherited, and sent on every attempt of a
/// `POST` (the fault server logs request headers).
@Suite("Push idempotency header")
struct PushHeaderTests {
    private static func model(site: URL, path: String, push: String) throws -> MappingModel {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let mapping = """
            rmap: 1
            source: { plugin: http, site: \(site.absoluteString), retries: 0 }
            entities:
              Task:
                path: \(path)
                push: \(push)
                attributes: { id: int, title: string }
              Chore:
                extends: Task
            """
        return try MappingLoader(catalog: registry.catalog).load(documents: [("header.yml", mapping)])
    }

    @Test("the header defaults to Idempotency-Key, a sub-entity inherits its root's")
    func loaded() throws {
        let site = URL(string: "http://127.0.0.1:1")!
        let plain = try Self.model(site: site, path: "tasks", push: "{ method: put }")
        #expect(plain.entity(named: "Task")?.idempotencyHeader == "Idempotency-Key")
        let custom = try Self.model(site: site, path: "tasks", push: "{ idempotency_header: X-Request-Id }")
        #expect(custom.entity(named: "Chore")?.idempotencyHeader == "X-Request-Id")
    }

    @Test("a header name that is not an HTTP token is a mapping error at its mark")
    func invalid() throws {
        let site = URL(string: "http://127.0.0.1:1")!
        let error = try #require(throws: MappingError.self) {
            try Self.model(site: site, path: "tasks", push: "{ idempotency_header: 'Request Id' }")
        }
        #expect(
            "\(error)".contains("header.yml:6:33: 'idempotency_header' must be an HTTP header name, found 'Request Id'")
        )
    }

    @Test("every attempt of one POST carries the same key in the entity's header")
    func sameKeyEveryAttempt() async throws {
        let site = try TestServers.fault()
        let marker = marker()
        // The fault server answers 201 without an identity: the answer cannot be recorded, so
        // the journal keeps the request and the next push sends it again.
        let model = try Self.model(
            site: site, path: "status/201/\(marker)", push: "{ idempotency_header: X-Request-Id }")
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sync = SyncStore(
            store: try SQLiteStore(path: directory.appendingPathComponent("header.sqlite").path), model: model)
        try sync.insert("Task", ["title": .string("Sweep")])
        for _ in 1...2 {
            let report = try await Pusher(model: model).push(sync)
            #expect(report.pending.first?.description.contains("the server accepted it (HTTP 201)") == true)
        }
        let headers = try await Plain.requests(site, containing: marker).map { $0["headers"]?.object }
        let keys = headers.map { $0?["x-request-id"]?.string }
        #expect(keys.count == 2 && keys[0] != nil && keys[1] == keys[0])
        #expect(headers.allSatisfy { $0?["idempotency-key"] == nil })
    }
}
