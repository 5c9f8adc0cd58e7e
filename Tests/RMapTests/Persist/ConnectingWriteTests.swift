import Foundation
import Testing

@testable import RMap

/// A run's store writes the tables whose rows hold no links while the graph
/// is being connected, and the tables holding links (foreign-key columns,
/// join tables) only once connecting is over.
@Suite("Persist: writing while connecting")
struct ConnectingWriteTests {
    typealias F = StoreFixtures

    /// Projects have a `lead_id` column that connecting sets (the inverse of a connected
    /// to-many); people hold no link.
    static let yaml = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes: { id: int, firstName: string }
            relationships:
              led: { to_many: CRMProject, inverse: lead, connect: { foreign_key: { id: leaderNumber } } }
          CRMProject:
            attributes: { id: int, name: string, leaderNumber: int }
            relationships:
              lead: { to_one: CRMPerson }
        """

    @Test(
        "people are written while connecting runs; projects, whose lead_id it sets, after it",
        arguments: StoreKind.all)
    func settledRowsGoFirst(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(Self.yaml)
        let graph = ObjectGraph(schema: schema)
        let ann = F.add(graph, "CRMPerson", ["id": .int(1), "firstName": .string("Ann")])
        let project = F.add(graph, "CRMProject", ["id": .int(10), "name": .string("Apollo"), "leaderNumber": .int(1)])
        let store = FaultyStore(try kind.open(directory), failing: "none")
        let backend = try #require(store.backend as? FaultyBackend)

        let write = try await store.beginWrite(graph, request: WriteRequest())
        #expect(backend.rowWrites.withLock { $0 }.isEmpty)
        // The people table holds no link: it is written while connecting runs.
        try await write.writeSettled()
        let writtenWhileConnecting = backend.rowWrites.withLock { $0 }
        F.link(ann, "led", [project])
        F.link(project, "lead", [ann])
        _ = try await write.finish()

        #expect(writtenWhileConnecting.contains("people"))
        #expect(!writtenWhileConnecting.contains("projects"))
        let projects = try kind.open(directory).contents(schema, "CRMProject")
        #expect(projects["10"]?["lead_id"] == .int(1))
        #expect(try kind.open(directory).contents(schema, "CRMPerson")["1"]?["first_name"] == .string("Ann"))
    }

    @Test("a table whose foreign keys mapping sets (a nested to-one) is written while connecting runs")
    func nestedForeignKeysAreSettled() throws {
        let schema = try F.schema()
        let layout = StoreLayout(schema: schema)
        let project = try #require(schema.type(named: "CRMProject"))
        #expect(layout.table(of: project).columns.contains { $0.name == "owner_id" })
        #expect(layout.settledBeforeConnecting([project], in: schema) == [true])
        let lead = try F.schema(Self.yaml)
        let led = try #require(lead.type(named: "CRMProject"))
        #expect(StoreLayout(schema: lead).settledBeforeConnecting([led], in: lead) == [false])
    }
}
