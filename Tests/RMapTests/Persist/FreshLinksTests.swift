import Foundation
import RMapSQLite
import Testing

@testable import RMap
@testable import RMapPostgres

/// The links of tables that held nothing (``PersistRun/writeFreshLinks(objects:)``): written
/// between batches of rows once the pipeline says connecting is over, or after the rows
/// otherwise, each link once, and none of a source's stale links kept.
@Suite("Links of tables that held nothing")
struct FreshLinksTests {
    typealias F = StoreFixtures

    static let yaml = """
        rmap: 1
        entities:
          Person:
            attributes: { id: int, name: string }
          Project:
            attributes: { id: int, memberIds: [int] }
            relationships:
              members: { to_many: Person, connect: { foreign_key: { memberIds: id } } }
        """

    /// Maps 30 people and `projects` (project `n`'s members: by default `n % 30` and `n % 7 + 30`,
    /// the latter nobody), then writes them as a run does: the settled tables while connecting,
    /// told when connecting is over.
    private func run(
        _ projects: Range<Int>, into store: any BackendStore, members: (Int) -> [Int] = { [$0 % 30, $0 % 7 + 30] }
    ) async throws -> ConnectReport {
        let schema = GraphSchema(model: try F.model(Self.yaml))
        let graph = ObjectGraph(schema: schema)
        let mapper = RecordMapper(graph: graph, transformers: [:])
        let people = (0..<30).map { #"{"id": \#($0), "name": "P\#($0)"}"# }.joined(separator: ",")
        let records = projects.map { #"{"id": \#($0), "member_ids": \#(members($0))}"# }
        try mapper.map(
            Payload(origin: "people.json", entity: "Person", body: .document(try ModelFixtures.json("[\(people)]"))))
        try mapper.map(
            Payload(
                origin: "projects.json", entity: "Project",
                body: .document(try ModelFixtures.json("[\(records.joined(separator: ","))]"))))
        let write = try await store.beginWrite(graph, request: WriteRequest())
        async let settled: Void = write.writeSettled()
        let report = Connector(schema: schema).connect(graph)
        write.connected()
        try await settled
        _ = try await write.finish()
        return report
    }

    @Test("thousands of new sources get each of their links once", arguments: StoreKind.all)
    func everyLinkOnce(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let projects = 0..<5_000
        let report = try await run(projects, into: kind.open(directory))
        #expect(report.dangling.count == projects.count, "member n % 7 + 30 is nobody")

        let schema = GraphSchema(model: try F.model(Self.yaml))
        let links = try kind.open(directory).objects(schema: schema).links(of: "Project", "members")
        #expect(links.count == projects.count)
        for id in projects where links[IdentityKey([.int(Int64(id))])] != [IdentityKey([.int(Int64(id % 30))])] {
            Issue.record("project \(id): \(links[IdentityKey([.int(Int64(id))])] ?? [])")
            break
        }
    }

    @Test("a table emptied outside rmap loses its sources' stale links when written again")
    func staleLinksOfAnEmptiedTable() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory.appendingPathComponent("rmap.sqlite").path
        _ = try await run(0..<10, into: SQLiteStore(path: path))
        // Rows and bases gone, the join table left as it was: the table holds nothing again.
        let connection = try SQLiteConnection(path: path)
        try connection.execute(
            "INSERT INTO _rmap_own_writes VALUES (1); DELETE FROM projects; DELETE FROM _rmap_base_projects; "
                + "UPDATE projects_members SET member_id = member_id + 1; DELETE FROM _rmap_own_writes")
        #expect(try connection.query("SELECT count(*) FROM projects_members").first?.first == .integer(10))

        _ = try await run(0..<10, into: SQLiteStore(path: path))
        let stored = try connection.query("SELECT project_id, member_id FROM projects_members ORDER BY project_id")
        #expect(stored == (0..<10).map { [.integer(Int64($0)), .integer(Int64($0 % 30))] })
    }

    @Test("PostgreSQL copies every batch's links into a new join table, however many each object has")
    func everyBatchCopied() async throws {
        let directory = try F.temporaryDirectory()
        let store = try StoreKind.postgres.open(directory)
        let backend = try #require(store.backend as? PostgresBackend)
        // Two batches of objects; the first ten objects have two members, so the first batch has
        // 2,058 links: sent in two calls, its last 10 would be below the COPY threshold and merge
        // the rest of the load through staging.
        let projects = 0..<(2 * PersistWriter.batchSize)
        _ = try await run(projects, into: store) { $0 < 10 ? [$0 % 30, ($0 + 1) % 30] : [$0 % 30] }
        // The projects and their links; the 30 people, below the threshold, are inserted.
        #expect(backend.freshTables.copiedRows == projects.count + projects.count + 10)
        #expect(backend.stagedRows == 0)
    }
}
