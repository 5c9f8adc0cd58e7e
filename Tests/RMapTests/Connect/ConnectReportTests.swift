import Testing

@testable import RMap

/// What a run reports: dangling references with the values that matched
/// nothing, and to-one connections that matched several objects.
@Suite("Connect: dangling references and errors")
struct ConnectReportTests {
    let graph: ObjectGraph

    init() throws {
        graph = ObjectGraph(schema: try ConnectFixtures.crmSchema())
    }

    func connect() -> ConnectReport { Connector(schema: graph.schema).connect(graph) }

    @Test("a to-one matching nothing stays empty and is dangling, with the value and the record's origin")
    func danglingToOne() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        let project = try graph.add("CRMProject", ["id": .int(10), "personId": .int(99)], origin: "projects.json#1")
        let report = connect()
        #expect(try project.related("owner").isEmpty)
        #expect(
            report.dangling == [
                DanglingReference(
                    entity: "CRMProject", identity: IdentityKey([.int(10)]), relationship: "owner",
                    destination: "CRMPerson",
                    attributes: ["id"], values: [.int(99)], origin: "projects.json#1")
            ])
        #expect(
            report.dangling.first?.description
                == "projects.json#1: CRMProject 10: 'owner' found no CRMPerson with id 99")
        #expect(report.counts["CRMProject"] == nil)
    }

    @Test("to-many members that match nothing are dangling, listed in the source's order; the others connect")
    func danglingToManyMembers() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMPerson", ["id": .int(2)])
        let project = try graph.add(
            "CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(98), .int(1), .int(97), .int(2)])])
        let report = connect()
        #expect(try project.ids("teamMembers") == [1, 2])
        let members = report.dangling.filter { $0.relationship == "teamMembers" }
        #expect(members.map(\.values) == [[.int(98), .int(97)]])
        #expect(
            members.first?.description == "test.json: CRMProject 10: 'teamMembers' found no CRMPerson with id 98, 97")
        #expect(report.counts["CRMProject"] == 2 * 3, "teamMembers, plainMembers and watchers each link 1 and 2")
    }

    @Test("a to-one matching several objects is an error and stays empty")
    func toOneMatchingSeveral() throws {
        try graph.add("CRMPerson", ["id": .int(1), "name": .string("ann")])
        try graph.add("CRMPerson", ["id": .int(2), "name": .string("ann")])
        try graph.add("CRMPerson", ["id": .int(3), "name": .string("bob")])
        let ambiguous = try graph.add("CRMProject", ["id": .int(10), "leadName": .string("ann")], origin: "p.json#0")
        let clear = try graph.add("CRMProject", ["id": .int(11), "leadName": .string("bob")])
        let report = connect()
        #expect(try ambiguous.related("namedLead").isEmpty)
        #expect(try clear.ids("namedLead") == [3])
        #expect(
            report.errors == [
                ConnectError(
                    entity: "CRMProject", identity: IdentityKey([.int(10)]), relationship: "namedLead",
                    destination: "CRMPerson",
                    attributes: ["name"], values: [.string("ann")], matches: 2, origin: "p.json#0")
            ])
        #expect(
            report.errors.first?.description
                == "p.json#0: CRMProject 10: to-one 'namedLead' matches 2 CRMPerson objects with name ann; it is left empty"
        )
        #expect(report.dangling.isEmpty)
    }

    @Test("a to-one key path reaching several objects is an error naming them")
    func keyPathReachingSeveral() throws {
        try graph.add("CRMAccount", ["id": .int(5), "region": .string("eu")])
        try graph.add("CRMAccount", ["id": .int(6), "region": .string("eu")])
        try graph.add("CRMPerson", ["id": .int(1), "accountId": .int(5), "region": .string("eu")])
        try graph.add("CRMPerson", ["id": .int(2), "accountId": .int(6), "region": .string("eu")])
        let project = try graph.add("CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(1), .int(2)])])
        let report = connect()
        #expect(try project.related("memberAccount").isEmpty)
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1)
        #expect(error.matches == 2 && error.attributes.isEmpty)
        #expect(error.values == [.array([.int(5), .string("eu")]), .array([.int(6), .string("eu")])])
        #expect(
            error.description
                == "test.json: CRMProject 10: to-one 'memberAccount' matches 2 CRMAccount objects reached through its key path ((5, eu), (6, eu)); it is left empty"
        )
    }
}
