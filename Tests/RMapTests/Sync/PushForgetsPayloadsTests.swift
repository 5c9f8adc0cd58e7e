import Foundation
import RMapSQLite
import Testing

@testable import RMap

/// An acknowledged push rewrites bases from the server's answers, so the payloads that runs
/// remembered unchanged (``RememberedPayloads``) no longer stand for "nothing to change".
@Suite("Push forgets remembered payloads")
struct PushForgetsPayloadsTests {
    /// The run-state scopes and keys the store holds.
    private func state(_ fixture: SyncFixture) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: fixture.storePath).query("SELECT scope, key FROM _rmap_state ORDER BY scope, key")
    }

    @Test("an acknowledged request removes every remembered payload and keeps the other run state")
    func acknowledgementForgets() throws {
        let fixture = try SyncFixture()
        let store = try SQLiteStore(path: fixture.storePath)
        var update = RunStateUpdate()
        update.set(scope: RememberedPayloads.scope, key: "/data/people.json", to: .string("entry"))
        update.set(scope: RememberedPayloads.scope, key: "/data/projects.json", to: .string("entry"))
        update.set(scope: IncrementalCursors.scope, key: "Person", to: .string("2024-01-01"))
        let engine = try store.engine()
        try engine.transaction { try RunStateTable.write(update, to: engine) }
        #expect(try state(fixture).count == 3)

        try fixture.sql("UPDATE people SET first_name = 'Ada L.' WHERE id = 1")
        let schedule = try fixture.sync.schedule()
        let (index, request) = try #require(schedule.next())
        schedule.succeeded(index, request: request, answer: nil, location: nil)
        #expect(schedule.acknowledged == 1)
        #expect(try state(fixture) == [[.text(IncrementalCursors.scope), .text("Person")]])
    }
}
