import Testing

@testable import RMap

/// Foreign-key connections: equality on one or several attributes, arrays as
/// an OR, sub-entities, null and missing values.
@Suite("Connect: foreign keys")
struct ConnectForeignKeyTests {
    let graph: ObjectGraph

    init() throws {
        graph = ObjectGraph(schema: try ConnectFixtures.crmSchema())
    }

    func connect() -> ConnectReport { Connector(schema: graph.schema).connect(graph) }

    @Test("a single pair connects the destination whose attribute equals the source's")
    func singlePair() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMPerson", ["id": .int(2)])
        let project = try graph.add("CRMProject", ["id": .int(10), "personId": .int(2)])
        let report = connect()
        #expect(try project.ids("owner") == [2])
        #expect(report.dangling.isEmpty)
        #expect(report.errors.isEmpty)
        #expect(report.counts["CRMProject"] == 1)
    }

    @Test("several pairs must all match")
    func pairsAreAnded() throws {
        let eu = try graph.add("CRMAccount", ["id": .int(5), "region": .string("eu")])
        let us = try graph.add("CRMAccount", ["id": .int(5), "region": .string("us")])
        try graph.add("CRMAccount", ["id": .int(6), "region": .string("eu")])
        let ann = try graph.add("CRMPerson", ["id": .int(1), "accountId": .int(5), "region": .string("us")])
        let bob = try graph.add("CRMPerson", ["id": .int(2), "accountId": .int(5), "region": .string("eu")])
        let cy = try graph.add("CRMPerson", ["id": .int(3), "accountId": .int(6), "region": .string("us")])
        let report = connect()
        #expect(try ann.relatedObject("account") == us)
        #expect(try bob.relatedObject("account") == eu)
        #expect(try cy.related("account").isEmpty)
        #expect(report.dangling.map(\.values) == [[.array([.int(6), .string("us")])]])
        #expect(report.dangling.first?.attributes == ["id", "region"])
    }

    @Test("an array value connects every member's match, in the array's order, once each")
    func collectionIsOr() throws {
        for id in 1...3 { try graph.add("CRMPerson", ["id": .int(Int64(id))]) }
        let project = try graph.add(
            "CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(3), .int(1), .int(3), .int(2)])])
        let empty = try graph.add("CRMProject", ["id": .int(11), "teamMemberIds": .array([])])
        let report = connect()
        #expect(try project.ids("teamMembers") == [3, 1, 2])
        #expect(try empty.related("teamMembers").isEmpty)
        #expect(report.dangling.isEmpty)
    }

    @Test("include_subentities: true matches entities that extend the destination; false only the entity itself")
    func subentities() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMAdmin", ["id": .int(2), "level": .int(3)])
        let project = try graph.add("CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(1), .int(2)])])
        let report = connect()
        #expect(try project.ids("teamMembers") == [1, 2])
        #expect(try project.ids("admins") == [2])
        #expect(try project.ids("plainMembers") == [1])
        #expect(report.dangling.isEmpty, "a match the rule filters out is not a dangling reference")
    }

    @Test("a sub-entity's objects connect through the relationships it inherits")
    func inheritedConnection() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        let admin = try graph.add("CRMAdmin", ["id": .int(2), "managerId": .int(1)])
        let report = connect()
        #expect(try admin.ids("manager") == [1])
        #expect(report.counts["CRMAdmin"] == 1)
    }

    @Test("a null value clears the relationship; a value the payload did not carry leaves it as it was")
    func nullAndMissing() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        let cleared = try graph.add("CRMProject", ["id": .int(10), "personId": .int(1)])
        let kept = try graph.add("CRMProject", ["id": .int(11), "personId": .int(1)])
        _ = connect()
        #expect(try cleared.ids("owner") == [1] && kept.ids("owner") == [1])
        try cleared.set("personId", to: .null)
        let position = try #require(kept.type.attributeIndex("personId"))
        kept.values[position] = nil
        let report = connect()
        #expect(try cleared.related("owner").isEmpty)
        #expect(try graph.find("CRMPerson", 1).ids("ownedProjects") == [11])
        #expect(try kept.ids("owner") == [1])
        #expect(report.dangling.isEmpty)
    }

    @Test("union assignment adds new matches to the links already there; replace swaps them")
    func unionAssignment() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMPerson", ["id": .int(2)])
        let project = try graph.add("CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(1)])])
        _ = connect()
        try project.set("teamMemberIds", to: .array([.int(2), .int(1)]))
        _ = connect()
        #expect(try project.ids("watchers") == [1, 2])
        #expect(try project.ids("teamMembers") == [2, 1])
    }
}
