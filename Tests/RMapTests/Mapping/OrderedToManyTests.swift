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

    /// One run of people and teams.
    private func run(_ run: StreamedRun, people: String, teams: String) async throws {
        let report = try await run.run(["CRMPerson": people, "CRMTeam": teams])
        #expect(!report.hasProblems, "\(report.recordErrors) \(report.dangling)")
    }

    @Test("payload order is kept in the store and read back", arguments: StoreKind.all)
    func orderKept(kind: StoreKind) async throws {
        let stored = try StreamedRun(Self.yaml, kind: kind)
        try await run(
            stored, people: #"[{"id": 1, "projects": [{"id": 12}, {"id": 10}, {"id": 11}]}, {"id": 2}, {"id": 3}]"#,
            teams: #"[{"id": 7, "member_ids": [3, 1, 2]}]"#)
        #expect(try await stored.ids("CRMPerson", 1, "projects") == [12, 10, 11])
        #expect(try await stored.ids("CRMTeam", 7, "members") == [3, 1, 2])

        try await run(
            stored, people: #"[{"id": 1, "projects": [{"id": 11}, {"id": 12}, {"id": 10}]}, {"id": 2}, {"id": 3}]"#,
            teams: #"[{"id": 7, "member_ids": [2, 3, 1]}]"#)
        #expect(try await stored.ids("CRMPerson", 1, "projects") == [11, 12, 10])
        #expect(try await stored.ids("CRMTeam", 7, "members") == [2, 3, 1])
        let engine = try kind.open(stored.directory)
        try engine.load(StoreLayout(schema: GraphSchema(model: stored.model)))
        let position = try engine.engine().scalar("SELECT owner_position FROM projects WHERE id = 11", type: .int)
        #expect(position == .int(0))
    }

    @Test("turning ordered on for a stored join table adds its position column", arguments: StoreKind.all)
    func orderedLater(kind: StoreKind) async throws {
        let unordered = try StreamedRun(
            Self.yaml.replacingOccurrences(
                of: "members: { to_many: CRMPerson, ordered: true,", with: "members: { to_many: CRMPerson,"),
            kind: kind)
        let people = #"[{"id": 1}, {"id": 2}, {"id": 3}]"#
        try await run(unordered, people: people, teams: #"[{"id": 7, "member_ids": [3, 1]}]"#)
        let ordered = try StreamedRun(Self.yaml, over: unordered)
        try await run(ordered, people: people, teams: #"[{"id": 7, "member_ids": [3, 1, 2]}]"#)
        #expect(try await ordered.ids("CRMTeam", 7, "members") == [3, 1, 2])
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
