import Testing

@testable import RMap

/// Inverses follow every link a connection makes or removes.
@Suite("Connect: inverses")
struct ConnectInverseTests {
    let graph: ObjectGraph

    init() throws {
        graph = ObjectGraph(schema: try ConnectFixtures.crmSchema())
    }

    func connect() -> ConnectReport { Connector(schema: graph.schema).connect(graph) }

    @Test("a to-one's to-many inverse holds every source, in the sources' order")
    func toOneWithToManyInverse() throws {
        let ann = try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMProject", ["id": .int(10), "personId": .int(1)])
        try graph.add("CRMProject", ["id": .int(11), "personId": .int(1)])
        _ = connect()
        #expect(try ann.ids("ownedProjects") == [10, 11])
    }

    @Test("a to-many's to-many inverse holds every source linking to it")
    func toManyWithToManyInverse() throws {
        let ann = try graph.add("CRMPerson", ["id": .int(1)])
        let bob = try graph.add("CRMPerson", ["id": .int(2)])
        try graph.add("CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(1), .int(2)])])
        try graph.add("CRMProject", ["id": .int(11), "teamMemberIds": .array([.int(2)])])
        _ = connect()
        #expect(try ann.ids("memberOf") == [10])
        #expect(try bob.ids("memberOf") == [10, 11])
    }

    @Test("a to-one's to-one inverse is the source")
    func toOneWithToOneInverse() throws {
        let desk = try graph.add("CRMDesk", ["id": .int(7)])
        try graph.add("CRMPerson", ["id": .int(1), "deskId": .int(7)])
        _ = connect()
        #expect(try desk.ids("occupant") == [1])
    }

    @Test("connecting again changes nothing: no inverse holds a source twice")
    func idempotent() throws {
        let ann = try graph.add("CRMPerson", ["id": .int(1), "deskId": .int(7)])
        let desk = try graph.add("CRMDesk", ["id": .int(7)])
        let project = try graph.add(
            "CRMProject", ["id": .int(10), "personId": .int(1), "teamMemberIds": .array([.int(1)])])
        let first = connect()
        let second = connect()
        #expect(try ann.ids("ownedProjects") == [10] && ann.ids("memberOf") == [10])
        #expect(try project.ids("owner") == [1] && desk.ids("occupant") == [1])
        #expect(first.counts == second.counts)
    }

    @Test("a link replaced by a new value leaves no stale inverse")
    func replacedLinks() throws {
        let ann = try graph.add("CRMPerson", ["id": .int(1)])
        let bob = try graph.add("CRMPerson", ["id": .int(2)])
        let project = try graph.add(
            "CRMProject", ["id": .int(10), "personId": .int(1), "teamMemberIds": .array([.int(1), .int(2)])])
        _ = connect()
        #expect(try ann.ids("ownedProjects") == [10] && ann.ids("memberOf") == [10])
        try project.set("personId", to: .int(2))
        try project.set("teamMemberIds", to: .array([.int(2)]))
        _ = connect()
        #expect(try ann.related("ownedProjects").isEmpty)
        #expect(try bob.ids("ownedProjects") == [10])
        #expect(try ann.related("memberOf").isEmpty)
        #expect(try bob.ids("memberOf") == [10])
    }

    @Test("a to-one inverse claimed by another source moves to it, and the previous holder lets go")
    func toOneInverseMoves() throws {
        let desk = try graph.add("CRMDesk", ["id": .int(7)])
        let ann = try graph.add("CRMPerson", ["id": .int(1), "deskId": .int(7)])
        _ = connect()
        let bob = try graph.add("CRMPerson", ["id": .int(2), "deskId": .int(7)])
        _ = connect()
        #expect(try desk.ids("occupant") == [2])
        #expect(try bob.ids("desk") == [7])
        #expect(try ann.related("desk").isEmpty, "the last source to claim a one-to-one keeps it")
    }

    @Test("the inverse of a composite-keyed to-one follows its account")
    func compositeInverse() throws {
        let eu = try graph.add("CRMAccount", ["id": .int(5), "region": .string("eu")])
        let us = try graph.add("CRMAccount", ["id": .int(5), "region": .string("us")])
        let ann = try graph.add("CRMPerson", ["id": .int(1), "accountId": .int(5), "region": .string("eu")])
        _ = connect()
        #expect(try eu.ids("people") == [1])
        try ann.set("region", to: .string("us"))
        _ = connect()
        #expect(try eu.related("people").isEmpty)
        #expect(try us.ids("people") == [1])
    }

    @Test("a nested relationship is left as mapped and its inverse is filled")
    func nestedInverse() throws {
        let ann = try graph.add("CRMPerson", ["id": .int(1)])
        let note = try graph.add("CRMNote", ["id": .int(3)])
        let position = try #require(ann.type.relationshipIndex("notes"))
        ann.setRelated(at: position, to: [note])
        _ = connect()
        #expect(try ann.ids("notes") == [3])
        #expect(try note.relatedObject("author") == ann)
    }
}
