import Foundation
import RMap
import Testing

@testable import RMapPostgres

/// Large batches go through `COPY ... FROM STDIN` and a merge, and come back exactly.
@Suite("PostgresStore bulk path")
struct PostgresStoreBulkTests {
    typealias F = StoreFixtures

    /// Three full write batches and part of a fourth: several COPYs, each of several 256 KiB chunks,
    /// and each of the awkward values below many times over (their cycles are at most 100 long).
    private static let count = PersistWriter.batchSize * 3 + 101

    /// The values of person `index`: every type, with the awkward cases spread through the batch.
    private static func values(_ index: Int) -> [String: Value] {
        let doubles: [Double] = [0.1, -0.0, 1e300, .leastNonzeroMagnitude, .infinity, -.infinity, 1.0 / 3]
        var values: [String: Value] = [
            "id": .int(Int64(index)),
            "firstName": .string(
                index % 7 == 0 ? "tab\there \\N back\\slash\nnew \"line\" \(index)" : "person \(index)"),
            "city": index % 5 == 0 ? .null : .string(index % 10 == 1 ? "" : "Oslo"),
            "budget": .decimal(DecimalNumber("\(index).\(index % 100 < 10 ? "0" : "")\(index % 100)0")!),
            "admin": index % 3 == 0 ? .null : .bool(index % 2 == 0),
            "bornOn": .date(LocalDate(daysSinceEpoch: index - 20_000)),
            "seenAt": .datetime(Timestamp(milliseconds: Int64(index) * 86_400_123 - 1_000_000_000_000)),
            "score": .double(doubles[index % doubles.count] * Double(index % 11 + 1)),
            "tags": .array(index % 4 == 0 ? [] : [.string("t\(index)"), .string("q\"\\")]),
            "raw": .json(.object(JSONObject([("n", .number("\(index).50")), ("s", .string("x\ty"))]))),
        ]
        if index % 9 == 0 { values["level"] = .int(Int64.min + Int64(index)) }
        return values
    }

    @Test func severalBatchesOfObjectsAreCopiedAndReadBackExactly() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        func graph() -> ObjectGraph {
            let graph = ObjectGraph(schema: schema)
            for index in 0..<Self.count { F.add(graph, index % 9 == 0 ? "CRMAdmin" : "CRMPerson", Self.values(index)) }
            return graph
        }
        let store = try StoreKind.postgres.open(directory)
        let report = try store.write(graph(), request: WriteRequest())
        #expect(report.entities["CRMPerson"]?.inserted == Self.count - Self.count / 9 - 1)
        // A first import: one COPY per batch straight into the table (and the same bytes into its base).
        #expect((store.backend as? PostgresBackend)?.freshTables.copiedRows == Self.count)
        #expect((store.backend as? PostgresBackend)?.stagedRows == 0)

        let stored = try StoreKind.postgres.open(directory).contents(schema, "CRMPerson")
        #expect(stored.count == Self.count)
        let mismatches = (0..<Self.count).filter { index in
            let row = stored[String(index)]
            let values = Self.values(index)
            return row?["first_name"] != values["firstName"] || row?["address_city"] != values["city"]
                || row?["budget"] != values["budget"]
                || (row?["budget"]).map(ValueText.display) != values["budget"].map(ValueText.display)
                || row?["admin"] != values["admin"] || row?["born_on"] != values["bornOn"]
                || row?["seen_at"] != values["seenAt"] || row?["score"] != values["score"]
                || row?["tags"] != values["tags"] || row?["raw"] != values["raw"]
                || row?["level"] != (values["level"] ?? .null)
                || row?["type"] != .string(index % 9 == 0 ? "Admin" : "Person")
        }
        #expect(mismatches.isEmpty, "first mismatch: \(mismatches.first.map { stored[String($0)] ?? [:] } ?? [:])")

        let again = try StoreKind.postgres.open(directory).write(graph(), request: WriteRequest())
        #expect(again.entities["CRMPerson"]?.unchanged == Self.count - Self.count / 9 - 1)
        #expect(again.entities["CRMAdmin"]?.unchanged == Self.count / 9 + 1)
    }

    @Test func aBatchBelowTheThresholdSkipsCopyAndStillUpserts() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let store = try StoreKind.postgres.open(directory)
        let graph = ObjectGraph(schema: schema)
        for index in 0..<(PostgresBackend.copyThreshold - 1) { F.add(graph, "CRMPerson", Self.values(index)) }
        _ = try store.write(graph, request: WriteRequest())
        #expect((store.backend as? PostgresBackend)?.stagedRows == 0)
        #expect((store.backend as? PostgresBackend)?.freshTables.copiedRows == 0)
        #expect(try store.contents(schema, "CRMPerson")["10"]?["address_city"] == .null)
        #expect(try store.contents(schema, "CRMPerson")["11"]?["address_city"] == .string(""))
    }

    @Test func manyLinksAreCopiedAndStoredOnce() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let graph = ObjectGraph(schema: schema)
        let people = (1...2).map { F.add(graph, "CRMPerson", ["id": .int(Int64($0))]) }
        for id in 1...200 {
            let project = F.add(
                graph, "CRMProject", ["id": .int(Int64(id)), "teamMemberIds": .array([.int(1), .int(2)])])
            F.link(project, "teamMembers", people + [people[0]])
        }
        let store = try StoreKind.postgres.open(directory)
        _ = try store.write(graph, request: WriteRequest())
        // 200 projects and 600 links, of which the 400 distinct ones are copied.
        #expect((store.backend as? PostgresBackend)?.freshTables.copiedRows == 200 + 400)
        #expect((store.backend as? PostgresBackend)?.stagedRows == 0)
        let links = try PostgresConnection(url: PostgresSchemas.url(for: directory))
            .query(
                "SELECT count(*), count(DISTINCT project_id), min(team_member_id), max(team_member_id) FROM projects_team_members"
            )
        #expect(links.rows == [["400", "200", "1", "2"]])
    }
}
