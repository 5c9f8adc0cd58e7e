import Foundation
import RMap
import Testing

/// Writes go to the engine on a thread of their own, a few batches ahead of
/// the writer (``PersistWriter`` wraps every backend): a failure in an early
/// batch must still undo the whole write, whatever was queued behind it.
@Suite("Persist: queued writes")
struct BackgroundWriteTests {
    typealias F = StoreFixtures

    /// A graph of `count` people: several of ``PersistWriter/batchSize``.
    private func people(_ schema: GraphSchema, count: Int, name: String) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        for id in 1...count {
            F.add(graph, "CRMPerson", ["id": .int(Int64(id)), "firstName": .string("\(name) \(id)")])
        }
        return graph
    }

    @Test(
        "a fault in the first of several queued batches leaves the store as it was; the next write completes",
        // The renamed rows equal their new base: it is written by settleBase (upsertBase keeps local changes' bases).
        arguments: StoreKind.all, ["upsertRows", "settleBase"])
    func faultBehindQueuedBatches(kind: StoreKind, primitive: String) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let count = PersistWriter.batchSize * 3 + 5
        _ = try kind.open(directory).write(people(schema, count: count, name: "First"), request: WriteRequest())
        let before = try kind.open(directory).contents(schema, "CRMPerson")

        let renamed = people(schema, count: count, name: "Second")
        #expect(throws: FaultyBackend.Fault(primitive: primitive)) {
            try FaultyStore(try kind.open(directory), failing: primitive).write(renamed, request: WriteRequest())
        }
        #expect(try kind.open(directory).contents(schema, "CRMPerson") == before)

        let report = try kind.open(directory).write(renamed, request: WriteRequest())
        #expect(report.entities["CRMPerson"]?.updated == count)
        let after = try kind.open(directory).contents(schema, "CRMPerson")
        #expect(after.count == count)
        #expect(after["\(count)"]?["first_name"] == .string("Second \(count)"))
    }
}
