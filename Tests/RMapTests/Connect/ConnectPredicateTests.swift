import Testing

@testable import RMap

/// `when` (which sources connect) and `where` (which destinations they
/// connect to), with every kind of condition. Each case runs `rmap run`'s
/// streamed path into a SQLite store.
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

    /// The attributes of members and teams.
    static let attributes = """
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

    /// A team connecting members through `memberIds`, filtered by `side: condition`
    /// (no filter when `side` is `nil`).
    static func mapping(_ side: String?, _ condition: String) -> String {
        let predicate = condition.hasPrefix("{") ? condition : "{ \(condition) }"
        let filter = side.map { ", \($0): \(predicate)" } ?? ""
        return """
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
                    connect: { foreign_key: { memberIds: id }\(filter) }
            """
    }

    /// Objects 1 to 4 as JSON: 1 and 2 with values, 3 with nulls, 4 with no values carried.
    static func objects(memberIds: [Int64]? = nil) -> String {
        let members = memberIds.map { #", "member_ids": \#($0)"# } ?? ""
        return """
            [{"id": 1, "score": 1.50, "rank": 1, "level": 1, "name": "ann", "born_on": "2020-01-01",
              "seen_at": "1970-01-01T00:00:01Z", "active": true, "tags": ["x"]\(members)},
             {"id": 2, "score": 5.0, "rank": 5.5, "level": 3, "name": "bob", "born_on": "2021-06-01",
              "seen_at": "1970-01-01T00:00:05Z", "active": false\(members)},
             {"id": 3, "score": null, "rank": null, "level": null, "name": null, "born_on": null,
              "seen_at": null, "active": null, "tags": null\(members)},
             {"id": 4\(members)}]
            """
    }

    @Test("where: only destinations meeting the condition are connected", arguments: cases)
    func destinationPredicate(_ row: Case) async throws {
        let run = try StreamedRun(Self.mapping("where", row.condition))
        let report = try await run.run([
            "CRMMember": Self.objects(), "CRMTeam": #"[{"id": 1, "member_ids": [1, 2, 3, 4, 5]}]"#,
        ])
        #expect(try await run.ids("CRMTeam", 1, "members") == row.meets)
        #expect(report.dangling.map(\.values) == [[.int(5)]], "filtered members are not dangling; a missing one is")
    }

    @Test("when: only sources meeting the condition are connected; the others keep their links", arguments: cases)
    func sourcePredicate(_ row: Case) async throws {
        // Every team first links member 2, with no condition; then member 1, under `when`.
        let unfiltered = try StreamedRun(Self.mapping(nil, row.condition))
        try await unfiltered.run(["CRMMember": Self.objects(), "CRMTeam": Self.objects(memberIds: [2])])
        #expect(try await unfiltered.ids("CRMTeam", 4, "members") == [2])
        let run = try StreamedRun(Self.mapping("when", row.condition), over: unfiltered)
        try await run.run(["CRMTeam": Self.objects(memberIds: [1])])
        var connected: [Int64] = []
        var kept = 0
        for id: Int64 in 1...4 {
            switch try await run.ids("CRMTeam", id, "members") {
            case [1]: connected.append(id)
            case [2]: kept += 1
            default: break
            }
        }
        #expect(connected == row.meets)
        #expect(kept == 4 - row.meets.count)
    }
}
