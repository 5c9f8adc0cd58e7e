import Foundation
import Testing

@testable import RMap

/// `ordered: true` keeps a to-many's payload order in the store, whether a join
/// table (a `position` column) or the children's foreign key (`owner_position`)
/// holds it, and reading the links back returns that order; on every store.
@Suite("Ordered to-many")
struct OrderedToManyTests {
    typealias F = StoreFixtures

    static let yaml = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes:
              id: int
            relationships:
              projects: { to_many: CRMProject, inverse: owner, nested: true, ordered: true }
          CRMProject:
            attributes:
              id: int
            relationships:
              owner: { to_one: CRMPerson }
          CRMTeam:
            attributes:
              id: int
              memberIds: [int]
            relationships:
              members: { to_many: CRMPerson, ordered: true, connect: { foreign_key: { memberIds: id } } }
        """

    /// Maps people and teams, connects and writes them: one run.
    private func run(people: String, teams: String, into store: any BackendStore) throws {
        try MappedRun.run(Self.yaml, [("CRMPerson", people), ("CRMTeam", teams)], into: store)
    }

    /// The stored links of one source, as integer identities in the order read back.
    private func links(_ store: any BackendStore, _ entity: String, _ relationship: String, _ id: Int64) throws
        -> [Value]
    {
        let objects = store.objects(schema: GraphSchema(model: try F.model(Self.yaml)))
        return try objects.links(of: entity, relationship)[IdentityKey([.int(id)])]?.map { $0.values[0] } ?? []
    }

    @Test("payload order is kept in the store and read back", arguments: StoreKind.all)
    func orderKept(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        try run(
            people: #"[{"id": 1, "projects": [{"id": 12}, {"id": 10}, {"id": 11}]}, {"id": 2}, {"id": 3}]"#,
            teams: #"[{"id": 7, "member_ids": [3, 1, 2]}]"#, into: kind.open(directory))
        #expect(try links(kind.open(directory), "CRMPerson", "projects", 1) == [.int(12), .int(10), .int(11)])
        #expect(try links(kind.open(directory), "CRMTeam", "members", 7) == [.int(3), .int(1), .int(2)])

        try run(
            people: #"[{"id": 1, "projects": [{"id": 11}, {"id": 12}, {"id": 10}]}, {"id": 2}, {"id": 3}]"#,
            teams: #"[{"id": 7, "member_ids": [2, 3, 1]}]"#, into: kind.open(directory))
        #expect(try links(kind.open(directory), "CRMPerson", "projects", 1) == [.int(11), .int(12), .int(10)])
        #expect(try links(kind.open(directory), "CRMTeam", "members", 7) == [.int(2), .int(3), .int(1)])
        let projects = try kind.open(directory).contents(GraphSchema(model: try F.model(Self.yaml)), "CRMProject")
        #expect(projects["11"]?["owner_position"] == .int(0))
    }

    @Test("turning ordered on for a stored join table adds its position column", arguments: StoreKind.all)
    func orderedLater(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let unordered = Self.yaml.replacingOccurrences(
            of: "members: { to_many: CRMPerson, ordered: true,", with: "members: { to_many: CRMPerson,")
        let people = #"[{"id": 1}, {"id": 2}, {"id": 3}]"#
        try MappedRun.run(
            unordered, [("CRMPerson", people), ("CRMTeam", #"[{"id": 7, "member_ids": [3, 1]}]"#)],
            into: kind.open(directory))
        try run(people: people, teams: #"[{"id": 7, "member_ids": [3, 1, 2]}]"#, into: kind.open(directory))
        #expect(try links(kind.open(directory), "CRMTeam", "members", 7) == [.int(3), .int(1), .int(2)])
    }

    @Test("ordered needs a to-many that replaces its set")
    func orderedNeedsReplacedToMany() {
        let union = Self.yaml.replacingOccurrences(
            of: "nested: true, ordered: true", with: "nested: true, ordered: true, assignment: union")
        #expect(
            LoaderHarness.issues(union) == [
                "mappings/crm.yml:8:7: 'ordered' needs 'assignment: replace' on 'projects': a union has no payload order"
            ])
        let toOne = Self.yaml.replacingOccurrences(
            of: "owner: { to_one: CRMPerson }", with: "owner: { to_one: CRMPerson, ordered: true }")
        #expect(
            LoaderHarness.issues(toOne) == [
                "mappings/crm.yml:13:7: 'ordered' applies to to-many relationships, not to-one 'owner'"
            ])
    }
}
