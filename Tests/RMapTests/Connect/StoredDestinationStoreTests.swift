import Foundation
import Testing

@testable import RMap

/// ``Store/addStoredDestinations(to:request:)`` on every store: a run that did not fetch a
/// table completely links to its stored objects, by identity and by other attributes, and
/// leaves them as stored (a local edit included).
@Suite("Connections reach stored objects, on every store")
struct StoredDestinationStoreTests {
    typealias F = StoreFixtures

    static let yaml = """
        rmap: 1
        entities:
          Person:
            attributes: { id: int, email: string, name: string }
            relationships:
              projects: { to_many: Project }
          Project:
            attributes: { id: int, ownerId: int, reviewerEmail: string, memberIds: [int] }
            relationships:
              owner: { to_one: Person, inverse: projects, connect: { foreign_key: { ownerId: id } } }
              reviewer: { to_one: Person, connect: { foreign_key: { reviewerEmail: email } } }
              members: { to_many: Person, connect: { foreign_key: { memberIds: id } } }
          Note:
            attributes: { id: int, personId: int }
            relationships:
              person: { to_one: Person, connect: { foreign_key: { personId: id }, where: { name: Ann } } }
        """

    /// One run of `payloads` into `store`, as the pipeline does it: stored destinations are
    /// added for the entities not in `complete`, then the graph is connected and written.
    private func run(
        _ payloads: [(entity: String, json: String)], complete: Set<String>, into store: any BackendStore
    ) throws -> (graph: ObjectGraph, connect: ConnectReport, written: WriteReport) {
        let schema = GraphSchema(model: try F.model(Self.yaml))
        let graph = ObjectGraph(schema: schema)
        let mapper = RecordMapper(graph: graph, transformers: [:])
        for (entity, json) in payloads {
            try mapper.map(
                Payload(origin: "\(entity).json", entity: entity, body: .document(try ModelFixtures.json(json))))
        }
        let request = WriteRequest(completeEntities: complete)
        #expect(try store.addStoredDestinations(to: graph, request: request))
        let report = Connector(schema: schema).connect(graph)
        return (graph, report, try store.write(graph, request: request))
    }

    @Test("a partial run links to stored objects and does not rewrite them", arguments: StoreKind.all)
    func partialRun(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let people = #"[{"id": 1, "email": "ann@x", "name": "Ann"}, {"id": 2, "email": "bo@x", "name": "Bo"}]"#
        _ = try run(
            [("Person", people), ("Project", #"[{"id": 10, "owner_id": 1, "member_ids": [1, 2]}]"#)],
            complete: ["Person", "Project"], into: kind.open(directory))
        let schema = GraphSchema(model: try F.model(Self.yaml))
        try kind.open(directory).edit(schema, "Person", id: 2, "name", .string("Bo (edited)"))

        let projects = """
            [{"id": 10, "owner_id": 2, "reviewer_email": "ann@x", "member_ids": [2, 3]},
             {"id": 11, "owner_id": 7}]
            """
        let notes = #"[{"id": 1, "person_id": 1}, {"id": 2, "person_id": 2}]"#
        let (graph, connect, written) = try run(
            [("Project", projects), ("Note", notes)], complete: ["Project", "Note"], into: kind.open(directory))

        // Found in the store: owner 2 by identity, the reviewer by email, member 2; 3 and 7 are nowhere.
        let dangling = connect.dangling.map { ($0.relationship, $0.values) }
        #expect(dangling.count == 2, "\(connect.dangling)")
        #expect(dangling.contains { $0.0 == "members" && $0.1 == [.int(3)] })
        #expect(dangling.contains { $0.0 == "owner" && $0.1 == [.int(7)] })
        let project = try #require(try graph.object(of: "Project", identity: [.int(10)]))
        #expect(try project.related("owner").map(\.identity) == [IdentityKey([.int(2)])])
        #expect(try project.related("reviewer").map(\.identity) == [IdentityKey([.int(1)])])
        #expect(try project.related("members").map(\.identity) == [IdentityKey([.int(2)])])
        let owner = try #require(try graph.object(of: "Person", identity: [.int(2)]))
        #expect(graph.isStored(owner))
        #expect(try owner.related("projects").map(\.identity) == [IdentityKey([.int(10)])])
        // `where` applies to the stored values: note 2's person is Bo, whom `where` leaves out.
        #expect(try graph.object(of: "Note", identity: [.int(1)])?.related("person").count == 1)
        #expect(try graph.object(of: "Note", identity: [.int(2)])?.related("person").isEmpty == true)

        #expect(written.entities["Person"] == EntityWriteCounts())
        let stored = try kind.open(directory).contents(schema, "Person")
        #expect(stored["2"]?["name"] == .string("Bo (edited)"))
        let links = try kind.open(directory).objects(schema: schema).links(of: "Project", "members")
        #expect(links[IdentityKey([.int(10)])] == [IdentityKey([.int(2)])])
    }
}
