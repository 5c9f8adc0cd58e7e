import Testing

@testable import RMap

/// The cost of connecting grows with objects + references: one index per
/// destination scope, one lookup per reference, never a scan per source.
@Suite("Connect: scaling")
struct ConnectScalingTests {
    static let yaml = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes: { id: int }
            relationships:
              ownedProjects: { to_many: CRMProject }
              memberOf: { to_many: CRMProject }
          CRMProject:
            attributes: { id: int, personId: int, teamMemberIds: [int] }
            relationships:
              owner:
                to_one: CRMPerson
                inverse: ownedProjects
                connect: { foreign_key: { personId: id } }
              teamMembers:
                to_many: CRMPerson
                inverse: memberOf
                connect: { foreign_key: { teamMemberIds: id } }
        """

    /// `people` people and `projects` projects, each with an owner and three team members.
    static func graph(people: Int, projects: Int) throws -> ObjectGraph {
        let graph = ObjectGraph(schema: try ConnectFixtures.schema(yaml))
        let person = try #require(graph.schema.type(named: "CRMPerson"))
        let project = try #require(graph.schema.type(named: "CRMProject"))
        for id in 1...people {
            try graph.upsert(person, identity: IdentityKey([.int(Int64(id))]), origin: "people.json").0.set(
                "id", to: .int(Int64(id)))
        }
        for id in 1...projects {
            let object = graph.upsert(project, identity: IdentityKey([.int(Int64(id))]), origin: "projects.json").0
            let member = { (offset: Int) in Value.int(Int64((id * 7 + offset) % people + 1)) }
            try object.set("id", to: .int(Int64(id)))
            try object.set("personId", to: .int(Int64(id % people + 1)))
            try object.set("teamMemberIds", to: .array([member(0), member(1), member(2)]))
        }
        return graph
    }

    @Test(
        "work is one index over the destinations and one lookup per reference", arguments: [(30, 100), (3000, 10000)])
    func countedWork(people: Int, projects: Int) throws {
        let graph = try Self.graph(people: people, projects: projects)
        let report = Connector(schema: graph.schema).connect(graph)
        #expect(report.work == ConnectWork(indexesBuilt: 1, objectsIndexed: people, lookups: 4 * projects))
        #expect(report.counts == ["CRMProject": 4 * projects])
        let owned = try graph.objects(of: "CRMPerson").reduce(0) { $0 + (try $1.related("ownedProjects")).count }
        let memberships = try graph.objects(of: "CRMPerson").reduce(0) { $0 + (try $1.related("memberOf")).count }
        #expect(owned == projects && memberships == 3 * projects)
    }

    @Test("100k sources x 30k destinations")
    func measured() throws {
        let graph = try Self.graph(people: 30_000, projects: 100_000)
        let clock = ContinuousClock()
        var report = ConnectReport()
        let elapsed = clock.measure { report = Connector(schema: graph.schema).connect(graph) }
        print("connect: 100k sources x 30k destinations, 400k references: \(elapsed)")
        #expect(report.counts == ["CRMProject": 400_000])
        #expect(report.dangling.isEmpty && report.errors.isEmpty)
    }
}
