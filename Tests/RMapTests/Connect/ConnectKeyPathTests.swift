import Testing

@testable import RMap

/// Key-path connections: identities read on the source's graph, paths ending
/// on relationships, and the order that lets a path follow what it reads.
@Suite("Connect: key paths")
struct ConnectKeyPathTests {
    let graph: ObjectGraph

    init() throws {
        graph = ObjectGraph(schema: try ConnectFixtures.crmSchema())
    }

    func connect() -> ConnectReport { Connector(schema: graph.schema).connect(graph) }

    @Test("an attribute path holds the destination's identity")
    func attributePath() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMPerson", ["id": .int(2)])
        let project = try graph.add("CRMProject", ["id": .int(10), "leadId": .int(2)])
        let missing = try graph.add("CRMProject", ["id": .int(11), "leadId": .int(3)])
        let report = connect()
        #expect(try project.ids("lead") == [2])
        #expect(try missing.related("lead").isEmpty)
        #expect(report.dangling.map(\.values) == [[.int(3)]])
        #expect(report.dangling.first?.attributes == ["id"])
    }

    @Test("a path ending on a relationship connects its objects, after the foreign key it goes through")
    func throughForeignKeyEndingOnRelationship() throws {
        let account = try graph.add("CRMAccount", ["id": .int(5), "region": .string("eu")])
        try graph.add("CRMPerson", ["id": .int(1), "accountId": .int(5), "region": .string("eu")])
        let project = try graph.add("CRMProject", ["id": .int(10), "personId": .int(1)])
        let orphan = try graph.add("CRMProject", ["id": .int(11)])
        _ = connect()
        #expect(try project.relatedObject("ownerAccount") == account, "owner.account is read once owner is connected")
        #expect(try orphan.related("ownerAccount").isEmpty)
    }

    @Test("a path through a key-path connection waits for it, whatever the declaration order")
    func throughKeyPath() throws {
        try graph.add("CRMPerson", ["id": .int(1), "managerId": .int(3)])
        try graph.add("CRMPerson", ["id": .int(3)])
        let project = try graph.add("CRMProject", ["id": .int(10), "leadId": .int(1)])
        _ = connect()
        #expect(try project.ids("leadManager") == [3])
    }

    @Test("a path through an inverse waits for the connection that fills it")
    func throughInverse() throws {
        let ann = try graph.add("CRMPerson", ["id": .int(1)])
        try graph.add("CRMPerson", ["id": .int(2)])
        try graph.add("CRMPerson", ["id": .int(3)])
        try graph.add("CRMProject", ["id": .int(10), "personId": .int(1), "leadId": .int(3)])
        try graph.add("CRMProject", ["id": .int(11), "personId": .int(1), "leadId": .int(2)])
        _ = connect()
        #expect(try ann.ids("projectLeads") == [3, 2])
    }

    @Test("a path through a to-many reaches a collection and connects a to-many, once each")
    func throughToMany() throws {
        try graph.add("CRMPerson", ["id": .int(1), "managerId": .int(3)])
        try graph.add("CRMPerson", ["id": .int(2), "managerId": .int(3)])
        try graph.add("CRMPerson", ["id": .int(3)])
        try graph.add("CRMPerson", ["id": .int(4), "managerId": .int(5)])
        try graph.add("CRMPerson", ["id": .int(5)])
        let project = try graph.add(
            "CRMProject", ["id": .int(10), "teamMemberIds": .array([.int(1), .int(2), .int(4)])])
        _ = connect()
        #expect(try project.ids("teamManagers") == [3, 5])
    }

    @Test("an array of identities connects a to-many; identities compare by value")
    func collectionOfIdentities() throws {
        for id in 1...3 { try graph.add("CRMPerson", ["id": .int(Int64(id))]) }
        let project = try graph.add("CRMProject", ["id": .int(10), "leadRefs": .array([.string("3"), .string("1")])])
        _ = connect()
        #expect(try project.ids("coLeads") == [3, 1])
    }

    @Test("a composite identity is read from an array of its values")
    func compositeIdentity() throws {
        let account = try graph.add("CRMAccount", ["id": .int(5), "region": .string("eu")])
        try graph.add("CRMAccount", ["id": .int(5), "region": .string("us")])
        let project = try graph.add(
            "CRMProject", ["id": .int(10), "accountRef": .array([.string("5"), .string("eu")])])
        let stray = try graph.add("CRMProject", ["id": .int(11), "accountRef": .array([.string("7"), .string("eu")])])
        let report = connect()
        #expect(try project.relatedObject("account") == account)
        #expect(try stray.related("account").isEmpty)
        #expect(report.dangling.map(\.values) == [[.array([.string("7"), .string("eu")])]])
        #expect(report.dangling.first?.attributes == ["id", "region"])
    }

    @Test("a path value not carried leaves the relationship; a null clears it")
    func missingAndNull() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        let kept = try graph.add("CRMProject", ["id": .int(10), "leadId": .int(1)])
        let cleared = try graph.add("CRMProject", ["id": .int(11), "leadId": .int(1)])
        _ = connect()
        let position = try #require(kept.type.attributeIndex("leadId"))
        kept.values[position] = nil
        try cleared.set("leadId", to: .null)
        let report = connect()
        #expect(try kept.ids("lead") == [1])
        #expect(try cleared.related("lead").isEmpty)
        #expect(report.dangling.isEmpty)
    }

    @Test("an entity declared before the one it reads through still connects after it")
    func orderAcrossEntities() throws {
        let schema = try ConnectFixtures.schema(
            """
            rmap: 1
            naming: { entity_prefix: CRM }
            entities:
              CRMTask:
                attributes: { id: int, projectId: int }
                relationships:
                  client:
                    to_one: CRMClient
                    connect: { key_path: project.client }
                  project:
                    to_one: CRMProject
                    connect: { foreign_key: { projectId: id } }
              CRMProject:
                attributes: { id: int, clientId: int }
                relationships:
                  client:
                    to_one: CRMClient
                    connect: { key_path: clientId }
              CRMClient:
                attributes: { id: int }
            """)
        let order = ConnectionOrder.steps(of: schema).map { "\($0.source.name).\($0.relationship.name)" }
        #expect(order == ["CRMTask.project", "CRMProject.client", "CRMTask.client"])
        let graph = ObjectGraph(schema: schema)
        let client = try graph.add("CRMClient", ["id": .int(7)])
        try graph.add("CRMProject", ["id": .int(3), "clientId": .int(7)])
        let task = try graph.add("CRMTask", ["id": .int(1), "projectId": .int(3)])
        _ = Connector(schema: schema).connect(graph)
        #expect(try task.relatedObject("client") == client)
    }
}
