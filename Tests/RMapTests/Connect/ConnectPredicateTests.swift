import Testing

@testable import RMap

/// `when` (which sources connect) and `where` (which destinations they
/// connect to), with every kind of condition.
@Suite("Connect: when and where")
struct ConnectPredicateTests {
    /// One condition and the objects (1 to 4, see ``objects``) that meet it.
    struct Case: CustomTestStringConvertible, Sendable {
        var condition: String
        var meets: [Int64]
        var testDescription: String { condition }
    }

    static let cases: [Case] = [
        Case(condition: "score: 1.5", meets: [1]),
        Case(condition: "score: { eq: 5 }", meets: [2]),
        Case(condition: "score: [1.5, 5]", meets: [1, 2]),
        Case(condition: "score: { in: [5, 7] }", meets: [2]),
        Case(condition: "score: { ne: 5 }", meets: [1]),
        Case(condition: "score: { lt: 5 }", meets: [1]),
        Case(condition: "score: { le: 5 }", meets: [1, 2]),
        Case(condition: "score: { gt: 1.5 }", meets: [2]),
        Case(condition: "score: { ge: 1.5 }", meets: [1, 2]),
        Case(condition: "score: { null: true }", meets: [3, 4]),
        Case(condition: "score: { null: false }", meets: [1, 2]),
        Case(condition: "rank: { lt: 2 }", meets: [1]),
        Case(condition: "rank: { ge: 5.5 }", meets: [2]),
        Case(condition: "level: { gt: 2 }", meets: [2]),
        Case(condition: "name: { lt: b }", meets: [1]),
        Case(condition: "name: { ge: bob }", meets: [2]),
        Case(condition: "name: [ann, cy]", meets: [1]),
        Case(condition: "bornOn: { gt: 2020-06-01 }", meets: [2]),
        Case(condition: "bornOn: { le: 2020-01-01 }", meets: [1]),
        Case(condition: "seenAt: { le: \"1970-01-01T00:00:01Z\" }", meets: [1]),
        Case(condition: "seenAt: { gt: \"1970-01-01T00:00:01Z\" }", meets: [2]),
        Case(condition: "active: true", meets: [1]),
        Case(condition: "active: { ne: true }", meets: [2]),
        Case(condition: "tags: x", meets: []),
        Case(condition: "tags: { null: false }", meets: [1]),
        Case(condition: "{ active: true, score: { lt: 2 } }", meets: [1]),
        Case(condition: "{ active: true, score: { gt: 2 } }", meets: []),
    ]

    /// A team connecting members through `memberIds`, filtered by `side: condition`.
    static func schema(_ side: String, _ condition: String) throws -> GraphSchema {
        let predicate = condition.hasPrefix("{") ? condition : "{ \(condition) }"
        let attributes = """
                  id: int
                  score: decimal
                  rank: double
                  level: int
                  name: string
                  bornOn: date
                  seenAt: datetime
                  active: bool
                  tags: [string]
            """
        return try ConnectFixtures.schema(
            """
            rmap: 1
            naming: { entity_prefix: CRM }
            entities:
              CRMMember:
                attributes:
            \(attributes)
              CRMTeam:
                attributes:
            \(attributes)
                  memberIds: [int]
                relationships:
                  members:
                    to_many: CRMMember
                    connect: { foreign_key: { memberIds: id }, \(side): \(predicate) }
            """)
    }

    /// Objects 1 to 4 of `entity`: 1 and 2 with values, 3 with nulls, 4 with no values carried.
    @discardableResult
    static func objects(_ entity: String, in graph: ObjectGraph, memberIds: [Int64]? = nil) throws -> [GraphObject] {
        var rows: [[String: Value]] = [
            [
                "id": .int(1), "score": .decimal(DecimalNumber("1.50")!), "rank": .double(1), "level": .int(1),
                "name": .string("ann"), "bornOn": .date(LocalDate(iso: "2020-01-01")!),
                "seenAt": .datetime(Timestamp(milliseconds: 1000)), "active": .bool(true),
                "tags": .array([.string("x")]),
            ],
            [
                "id": .int(2), "score": .decimal(DecimalNumber("5.0")!), "rank": .double(5.5), "level": .int(3),
                "name": .string("bob"), "bornOn": .date(LocalDate(iso: "2021-06-01")!),
                "seenAt": .datetime(Timestamp(milliseconds: 5000)), "active": .bool(false),
            ],
            [
                "id": .int(3), "score": .null, "rank": .null, "level": .null, "name": .null, "bornOn": .null,
                "seenAt": .null, "active": .null, "tags": .null,
            ],
            ["id": .int(4)],
        ]
        if let memberIds {
            for index in rows.indices { rows[index]["memberIds"] = .array(memberIds.map(Value.int)) }
        }
        return try rows.map { try graph.add(entity, $0) }
    }

    @Test("where: only destinations meeting the condition are connected", arguments: cases)
    func destinationPredicate(_ row: Case) throws {
        let graph = ObjectGraph(schema: try Self.schema("where", row.condition))
        try Self.objects("CRMMember", in: graph)
        let team = try graph.add("CRMTeam", ["id": .int(1), "memberIds": .array((1...5).map(Value.int))])
        let report = Connector(schema: graph.schema).connect(graph)
        #expect(try team.ids("members") == row.meets)
        #expect(report.dangling.map(\.values) == [[.int(5)]], "filtered members are not dangling; a missing one is")
    }

    @Test("when: only sources meeting the condition are connected; the others keep their links", arguments: cases)
    func sourcePredicate(_ row: Case) throws {
        let graph = ObjectGraph(schema: try Self.schema("when", row.condition))
        let members = try Self.objects("CRMMember", in: graph)
        let teams = try Self.objects("CRMTeam", in: graph, memberIds: [1])
        let position = try #require(teams[0].type.relationshipIndex("members"))
        for team in teams { team.setRelated(at: position, to: [members[1]]) }
        _ = Connector(schema: graph.schema).connect(graph)
        let connected = try teams.filter { try $0.ids("members") == [1] }.map { $0.identity.values.first }
        let kept = try teams.filter { try $0.ids("members") == [2] }
        #expect(connected == row.meets.map { .int($0) })
        #expect(kept.count == 4 - row.meets.count)
    }
}
