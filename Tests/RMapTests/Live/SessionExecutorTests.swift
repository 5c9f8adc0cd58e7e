import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

/// The live session's store calls block its own worker thread, never a thread of the cooperative pool.
@Suite("Live session executor")
struct SessionExecutorTests {
    static let mapping = """
        rmap: 1
        source: { plugin: http, site: http://127.0.0.1:9, retries: 0 }
        entities:
          Note:
            attributes:
              id: int
              text: string
        """

    @Test("sessions waiting for a locked SQLite file leave the cooperative pool free")
    func lockedStore() async throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let model = try MappingLoader(catalog: registry.catalog).load(documents: [("notes.yml", Self.mapping)])
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("live.sqlite").path
        // More sessions than the pool has threads, each on its own connection; a write waits
        // up to 30 s for another connection's lock before it fails.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        var sessions: [Session] = []
        for _ in 0..<count {
            sessions.append(
                Session(model: model, store: try SQLiteStore(path: path, busyTimeout: .seconds(30)), registry: registry)
            )
        }
        _ = try await sessions[0].insert("Note", ["id": 0, "text": "schema"])

        let holder = try SQLiteConnection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        let inserts = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (number, session) in sessions.enumerated() {
                    group.addTask {
                        _ = try await session.insert("Note", ["id": number + 1, "text": "note \(number + 1)"])
                        return number + 1
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Every session now waits in SQLite's busy handler for `holder`'s lock.
        try await Task.sleep(for: .milliseconds(300))
        // Were those waits on the cooperative pool, this task would start only once writes
        // failed with SQLITE_BUSY; the lock is released only after it ran.
        await Task.detached {}.value
        try holder.execute("COMMIT")

        let inserted = try await inserts.value
        #expect(inserted.sorted() == Array(1...count))
        let stored = try SQLiteConnection(path: path).query("SELECT count(*) FROM notes").first?.first
        #expect(stored == .integer(Int64(count + 1)))
    }
}
