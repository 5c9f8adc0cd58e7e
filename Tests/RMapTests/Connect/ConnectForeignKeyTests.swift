import Testing

@testable import RMap

/// Foreign-key connections: equality on one or several attributes, arrays as
/// an OR, sub-entities, null and missing values. Each case runs `rmap run`'s
/// streamed path into a SQLite store and reads the links back from it.
@Suite("Connect: foreign keys")
struct ConnectForeignKeyTests {
    let run: StreamedRun

    init() throws {
        run = try StreamedRun(ConnectFixtures.crm)
    }

    @Test("a single pair connects the destination whose attribute equals the source's")
    func singlePair() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 2}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "owner") == [2])
        #expect(report.dangling.isEmpty)
        #expect(report.connectErrors.isEmpty)
        #expect(try await run.links("CRMProject", ["owner"]) == 1)
    }

    @Test("several pairs must all match")
    func pairsAreAnded() async throws {
        let report = try await run.run([
            "CRMAccount": #"[{"id": 5, "region": "eu"}, {"id": 5, "region": "us"}, {"id": 6, "region": "eu"}]"#,
            "CRMPerson": """
            [{"id": 1, "account_id": 5, "region": "us"}, {"id": 2, "account_id": 5, "region": "eu"},
             {"id": 3, "account_id": 6, "region": "us"}]
            """,
        ])
        #expect(try await run.object("CRMPerson", 1).relatedObject("account")?.identity == [.int(5), .string("us")])
        #expect(try await run.object("CRMPerson", 2).relatedObject("account")?.identity == [.int(5), .string("eu")])
        #expect(try await run.ids("CRMPerson", 3, "account").isEmpty)
        #expect(report.dangling.map(\.values) == [[.array([.int(6), .string("us")])]])
        #expect(report.dangling.first?.attributes == ["id", "region"])
    }

    @Test("an array value connects every member's match, in the array's order, once each")
    func collectionIsOr() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}, {"id": 3}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [3, 1, 3, 2]}, {"id": 11, "team_member_ids": []}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "teamMembers") == [3, 1, 2])
        #expect(try await run.ids("CRMProject", 11, "teamMembers").isEmpty)
        #expect(report.dangling.isEmpty)
    }

    @Test("an unordered to-many into an empty join table links each match once; a later run replaces the set")
    func unorderedIntoEmptyJoinTable() async throws {
        let first = try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}, {"id": 3}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [2, 1, 2]}, {"id": 11, "team_member_ids": [3]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "plainMembers").sorted() == [1, 2])
        #expect(try await run.ids("CRMProject", 11, "plainMembers") == [3])
        #expect(first.dangling.isEmpty, "a repeated member is no dangling reference")
        let second = try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}, {"id": 3}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [3, 3]}, {"id": 11, "team_member_ids": [3, 1]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "plainMembers") == [3])
        #expect(try await run.ids("CRMProject", 11, "plainMembers").sorted() == [1, 3])
        #expect(second.dangling.isEmpty)
    }

    @Test("include_subentities: true matches entities that extend the destination; false only the entity itself")
    func subentities() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1}]"#,
            "CRMAdmin": #"[{"id": 2, "level": 3}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [1, 2]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "teamMembers") == [1, 2])
        #expect(try await run.ids("CRMProject", 10, "admins") == [2])
        #expect(try await run.ids("CRMProject", 10, "plainMembers") == [1])
        #expect(report.dangling.isEmpty, "a match the rule filters out is not a dangling reference")
    }

    @Test("a sub-entity's objects connect through the relationships it inherits")
    func inheritedConnection() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}]"#,
            "CRMAdmin": #"[{"id": 2, "manager_id": 1}]"#,
        ])
        #expect(try await run.ids("CRMAdmin", 2, "manager") == [1])
        #expect(try await run.links("CRMAdmin", ["manager"]) == 1)
    }

    @Test("a null value clears the relationship; a value the payload did not carry leaves it as it was")
    func nullAndMissing() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 1}, {"id": 11, "person_id": 1}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "owner") == [1])
        #expect(try await run.ids("CRMProject", 11, "owner") == [1])
        let report = try await run.run(["CRMProject": #"[{"id": 10, "person_id": null}, {"id": 11}]"#])
        #expect(try await run.ids("CRMProject", 10, "owner").isEmpty)
        #expect(try await run.ids("CRMPerson", 1, "ownedProjects") == [11])
        #expect(try await run.ids("CRMProject", 11, "owner") == [1])
        #expect(report.dangling.isEmpty)
    }

    @Test("union assignment adds new matches to the links already there; replace swaps them")
    func unionAssignment() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [1]}]"#,
        ])
        try await run.run(["CRMProject": #"[{"id": 10, "team_member_ids": [2, 1]}]"#])
        #expect(try await run.ids("CRMProject", 10, "watchers") == [1, 2])
        #expect(try await run.ids("CRMProject", 10, "teamMembers") == [2, 1])
    }
}
