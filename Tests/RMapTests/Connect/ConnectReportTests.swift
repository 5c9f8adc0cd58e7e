import Testing

@testable import RMap

/// What a run reports: dangling references with the values that matched
/// nothing, and to-one connections that matched several objects. Each case
/// runs `rmap run`'s streamed path into a SQLite store.
@Suite("Connect: dangling references and errors")
struct ConnectReportTests {
    let run: StreamedRun

    init() throws {
        run = try StreamedRun(ConnectFixtures.crm)
    }

    @Test("a to-one matching nothing stays empty and is dangling, with the value and the record's origin")
    func danglingToOne() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1}]"#,
            "CRMProject": #"[{"id": 9}, {"id": 10, "person_id": 99}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "owner").isEmpty)
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
        #expect(try await run.links("CRMProject", ConnectFixtures.projectConnections) == 0)
    }

    @Test("to-many members that match nothing are dangling, listed in the source's order; the others connect")
    func danglingToManyMembers() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [98, 1, 97, 2]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "teamMembers") == [1, 2])
        let members = report.dangling.filter { $0.relationship == "teamMembers" }
        #expect(members.map(\.values) == [[.int(98), .int(97)]])
        #expect(
            members.first?.description
                == "projects.json#0: CRMProject 10: 'teamMembers' found no CRMPerson with id 98, 97")
        #expect(
            try await run.links("CRMProject", ConnectFixtures.projectConnections) == 2 * 3,
            "teamMembers, plainMembers and watchers each link 1 and 2")
    }

    @Test("a to-one matching several objects is an error and stays empty")
    func toOneMatchingSeveral() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1, "name": "ann"}, {"id": 2, "name": "ann"}, {"id": 3, "name": "bob"}]"#,
            "CRMProject": #"[{"id": 10, "lead_name": "ann"}, {"id": 11, "lead_name": "bob"}]"#,
        ])
        #expect(try await run.object("CRMProject", 10).relatedObject("namedLead") == nil)
        #expect(try await run.ids("CRMProject", 11, "namedLead") == [3])
        #expect(
            report.connectErrors == [
                ConnectError(
                    entity: "CRMProject", identity: IdentityKey([.int(10)]), relationship: "namedLead",
                    destination: "CRMPerson",
                    attributes: ["name"], values: [.string("ann")], matches: 2, origin: "projects.json#0")
            ])
        #expect(
            report.connectErrors.first?.description
                == "projects.json#0: CRMProject 10: to-one 'namedLead' matches 2 CRMPerson objects with name ann; it is left empty"
        )
        #expect(report.dangling.isEmpty)
    }

    @Test("a to-one key path reaching several objects is an error naming them")
    func keyPathReachingSeveral() async throws {
        let report = try await run.run([
            "CRMAccount": #"[{"id": 5, "region": "eu"}, {"id": 6, "region": "eu"}]"#,
            "CRMPerson": """
            [{"id": 1, "account_id": 5, "region": "eu"}, {"id": 2, "account_id": 6, "region": "eu"}]
            """,
            "CRMProject": #"[{"id": 10, "team_member_ids": [1, 2]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "memberAccount").isEmpty)
        let error = try #require(report.connectErrors.first)
        #expect(report.connectErrors.count == 1)
        #expect(error.matches == 2 && error.attributes.isEmpty)
        #expect(error.values == [.array([.int(5), .string("eu")]), .array([.int(6), .string("eu")])])
        #expect(
            error.description
                == "projects.json#0: CRMProject 10: to-one 'memberAccount' matches 2 CRMAccount objects reached through its key path ((5, eu), (6, eu)); it is left empty"
        )
    }
}
