import Foundation
import RMapSQLite
import Testing

@testable import RMap

/// `SyncStore`'s read and write scopes: reads take no write lock and do not check the schema
/// again; a write scope is one transaction.
@Suite("SyncStore scopes")
struct SyncStoreScopeTests {
    /// A sync API over the file at `path` whose engine records the transactions it begins.
    private func recorded(_ path: String, _ model: MappingModel) throws -> (SyncStore, RecordingEngine) {
        let engine = RecordingEngine(try SQLiteStore(path: path).engine())
        return (SyncStore(engine: engine, model: model), engine)
    }

    @Test func aReadSucceedsWhileAnotherConnectionHoldsAWriteTransaction() throws {
        let fixture = try SyncFixture()
        let sync = SyncStore(
            store: try SQLiteStore(path: fixture.storePath, busyTimeout: .milliseconds(200)), model: fixture.model)
        #expect(try sync.changes().isEmpty)
        let ada = try #require(try sync.objects(of: "Person").first { $0["id"] == .int(1) })

        let writer = try SQLiteConnection(path: fixture.storePath)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("UPDATE people SET first_name = 'Augusta' WHERE id = 1")
        // Reads go on beside the write, and see the state before it.
        #expect(try sync.changes().isEmpty)
        #expect(try sync.objects(of: "Person").map(\.identity).sorted { "\($0)" < "\($1)" } == [[.int(1)], [.int(2)]])
        // A write still waits for the lock, and gives up after the busy timeout.
        #expect(throws: (any Error).self) { try sync.update(ada, ["firstName": .string("Ada L.")]) }
        try writer.execute("COMMIT")

        #expect(try sync.changes().map(\.kind) == [.update])
    }

    @Test("rmap diff reads the store while another process holds its write transaction")
    func diffBesideAWrite() async throws {
        let fixture = try SyncFixture()
        try fixture.sql("UPDATE people SET first_name = 'Augusta' WHERE id = 1")
        let writer = try SQLiteConnection(path: fixture.storePath)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("DELETE FROM projects WHERE id = 11")
        defer { try? writer.execute("ROLLBACK") }
        let result = try await CLIRunner.run(
            ["diff", "crm.yml", "--store", "sqlite:crm.sqlite"], in: fixture.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                PUT /people/1.json {"person":{"first_name":"Augusta"}}
                1 request: 0 POST, 1 PUT, 0 DELETE

                """)
    }

    @Test func readsCheckTheSchemaOnceAndBeginNoWriteTransaction() throws {
        let fixture = try SyncFixture()
        let (sync, engine) = try recorded(fixture.storePath, fixture.model)
        _ = try sync.changes()
        _ = try sync.objects(of: "Person")
        _ = try sync.plan()
        // The first read looks at the schema in a read transaction of its own, then never again.
        #expect(engine.events == ["beginRead", "beginRead", "beginRead", "beginRead"])

        let ada = try #require(try sync.objects(of: "Person", where: ["id": 1]).first)
        try sync.update(ada, ["firstName": .string("Augusta")])
        #expect(engine.events.suffix(2) == ["begin", "ensureCapture"])
    }

    @Test func theFirstReadOfANewStoreCreatesTheTablesInAWrite() throws {
        let fixture = try SyncFixture()
        let path = fixture.directory.appendingPathComponent("new.sqlite").path
        let (sync, engine) = try recorded(path, fixture.model)
        #expect(try sync.changes().isEmpty)
        #expect(engine.events == ["beginRead", "begin", "ensureCapture"])
        #expect(try sync.objects(of: "Person").isEmpty)
        #expect(engine.events.suffix(2) == ["beginRead", "beginRead"])
    }

    @Test func aWriteScopeIsOneTransaction() throws {
        let fixture = try SyncFixture()
        let (sync, engine) = try recorded(fixture.storePath, fixture.model)
        let people = try sync.objects(of: "Person").sorted { "\($0.identity)" < "\($1.identity)" }
        engine.events.removeAll()
        try sync.write {
            try sync.update(people[0], ["firstName": .string("Augusta")])
            try sync.update(people[1], ["firstName": .string("Alan M.")])
        }
        #expect(engine.events == ["begin", "ensureCapture"])
        #expect(try sync.changes().count == 2)

        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try sync.write {
                try sync.delete(people[0])
                throw Abandoned()
            }
        }
        #expect(try sync.changes().map(\.kind) == [.update, .update])
    }

    @Test func aWriteInsideAReadScopeIsRefused() throws {
        let fixture = try SyncFixture()
        let ada = try #require(try fixture.sync.objects(of: "Person").first { $0["id"] == .int(1) })
        #expect(throws: SyncError.self) {
            try fixture.sync.read { try fixture.sync.update(ada, ["firstName": .string("Augusta")]) }
        }
        #expect(try fixture.sync.changes().isEmpty)
    }
}
