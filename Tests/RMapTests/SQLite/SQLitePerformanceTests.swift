import Foundation
import RMap
import RMapSQLite
import Testing

/// Bulk writes into a fresh file and an idempotent re-write. `RMAP_BENCH_OBJECTS`
/// sets the size (default 20000); with `RMAP_BENCH_REPORT` set, the rates are printed.
@Suite("SQLite store performance")
struct SQLitePerformanceTests {
    typealias F = StoreFixtures

    @Test("bulk insert, then an idempotent re-write that changes nothing")
    func bulkWrite() throws {
        let count = ProcessInfo.processInfo.environment["RMAP_BENCH_OBJECTS"].flatMap { Int($0) } ?? 20_000
        let schema = try F.schema()
        let graph = ObjectGraph(schema: schema)
        let seen = Timestamp(milliseconds: 1_700_000_000_000)
        var people: [GraphObject] = []
        for index in 0..<count / 2 {
            people.append(
                F.add(
                    graph, "CRMPerson",
                    [
                        "id": .int(Int64(index)), "firstName": .string("Person \(index)"), "city": .string("Oslo"),
                        "budget": .decimal(DecimalNumber("\(index).50")!), "admin": .bool(index % 2 == 0),
                        "seenAt": .datetime(seen), "score": .double(Double(index) / 4),
                    ]))
        }
        for index in 0..<count - count / 2 {
            let owner = people[index % people.count]
            let project = F.add(
                graph, "CRMProject",
                [
                    "id": .int(Int64(index)), "name": .string("Project \(index)"),
                    "personId": .int(Int64(index % people.count)),
                ])
            F.link(project, "owner", [owner])
            F.link(project, "manager", [owner])
        }
        let path = try F.temporaryDirectory().appendingPathComponent("bench.sqlite").path
        let store = try SQLiteStore(path: path)

        let start = Date()
        let first = try store.write(graph, request: WriteRequest())
        let insertSeconds = Date().timeIntervalSince(start)
        let again = Date()
        let second = try store.write(graph, request: WriteRequest())
        let rewriteSeconds = Date().timeIntervalSince(again)

        #expect(first.entities.values.reduce(0) { $0 + $1.inserted } == count)
        #expect(second.entities.values.reduce(0) { $0 + $1.unchanged } == count)
        #expect(second.entities.values.reduce(0) { $0 + $1.updated + $1.inserted } == 0)
        if ProcessInfo.processInfo.environment["RMAP_BENCH_REPORT"] != nil {
            print(
                "insert: \(Int(Double(count) / insertSeconds)) objects/s; re-write: \(Int(Double(count) / rewriteSeconds)) objects/s"
            )
        }
    }
}
