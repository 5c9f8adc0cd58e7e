import Testing

@testable import RMap

/// Key-path connections: identities read on the source's objects, paths ending
/// on relationships, and the order that lets a path follow what it reads. Each
/// case runs `rmap run`'s streamed path into a SQLite store.
@Suite("Connect: key paths")
struct ConnectKeyPathTests {
    let run: StreamedRun

    init() throws {
        run = try StreamedRun(ConnectFixtures.crm)
    }

    @Test("an attribute path holds the destination's identity")
    func attributePath() async throws {
        let report = try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}]"#,
            "CRMProject": #"[{"id": 10, "lead_id": 2}, {"id": 11, "lead_id": 3}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "lead") == [2])
        #expect(try await run.ids("CRMProject", 11, "lead").isEmpty)
        #expect(report.dangling.map(\.values) == [[.int(3)]])
        #expect(report.dangling.first?.attributes == ["id"])
    }

    @Test("a path ending on a relationship connects its objects, after the foreign key it goes through")
    func throughForeignKeyEndingOnRelationship() async throws {
        try await run.run([
            "CRMAccount": #"[{"id": 5, "region": "eu"}]"#,
            "CRMPerson": #"[{"id": 1, "account_id": 5, "region": "eu"}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 1}, {"id": 11}]"#,
        ])
        #expect(
            try await run.object("CRMProject", 10).relatedObject("ownerAccount")?.identity == [.int(5), .string("eu")],
            "owner.account is read once owner is connected")
        #expect(try await run.ids("CRMProject", 11, "ownerAccount").isEmpty)
    }

    @Test("a path through a key-path connection waits for it, whatever the declaration order")
    func throughKeyPath() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1, "manager_id": 3}, {"id": 3}]"#,
            "CRMProject": #"[{"id": 10, "lead_id": 1}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "leadManager") == [3])
    }

    @Test("a path through an inverse waits for the connection that fills it")
    func throughInverse() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}, {"id": 3}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 1, "lead_id": 3}, {"id": 11, "person_id": 1, "lead_id": 2}]"#,
        ])
        #expect(try await run.ids("CRMPerson", 1, "projectLeads") == [3, 2])
    }

    @Test("a path through a to-many reaches a collection and connects a to-many, once each")
    func throughToMany() async throws {
        try await run.run([
            "CRMPerson": """
            [{"id": 1, "manager_id": 3}, {"id": 2, "manager_id": 3}, {"id": 3}, {"id": 4, "manager_id": 5},
             {"id": 5}]
            """,
            "CRMProject": #"[{"id": 10, "team_member_ids": [1, 2, 4]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "teamManagers") == [3, 5])
    }

    @Test("an array of identities connects a to-many; identities compare by value")
    func collectionOfIdentities() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}, {"id": 3}]"#,
            "CRMProject": #"[{"id": 10, "lead_refs": ["3", "1"]}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "coLeads") == [3, 1])
    }

    @Test("a composite identity is read from an array of its values")
    func compositeIdentity() async throws {
        let report = try await run.run([
            "CRMAccount": #"[{"id": 5, "region": "eu"}, {"id": 5, "region": "us"}]"#,
            "CRMProject": #"[{"id": 10, "account_ref": ["5", "eu"]}, {"id": 11, "account_ref": ["7", "eu"]}]"#,
        ])
        #expect(try await run.object("CRMProject", 10).relatedObject("account")?.identity == [.int(5), .string("eu")])
        #expect(try await run.ids("CRMProject", 11, "account").isEmpty)
        #expect(report.dangling.map(\.values) == [[.array([.string("7"), .string("eu")])]])
        #expect(report.dangling.first?.attributes == ["id", "region"])
    }

    @Test(
        "a composite identity finds stored objects too; an array short of its parts is dangling",
        arguments: StoreKind.all)
    func compositeIdentityStoredAndShort(_ kind: StoreKind) async throws {
        let run = try StreamedRun(ConnectFixtures.crm, kind: kind)
        let report = try await run.run([
            "CRMAccount": #"[{"id": 5, "region": "eu"}, {"id": 5, "region": "us"}]"#,
            "CRMProject": #"[{"id": 10, "account_ref": ["5", "eu"]}, {"id": 12, "account_ref": ["5"]}]"#,
        ])
        #expect(try await run.object("CRMProject", 10).relatedObject("account")?.identity == [.int(5), .string("eu")])
        #expect(report.dangling.map(\.values) == [[.array([.string("5")])]])
        let projects = try await run.run([
            "CRMProject": #"[{"id": 14, "account_ref": ["5", "us"]}, {"id": 15, "account_ref": ["5", "xx"]}]"#
        ])
        #expect(
            try await run.object("CRMProject", 14).relatedObject("account")?.identity == [.int(5), .string("us")],
            "the accounts were not fetched: the stored one is found")
        #expect(projects.dangling.map(\.values) == [[.array([.string("5"), .string("xx")])]])
    }

    @Test("a path value not carried leaves the relationship; a null clears it")
    func missingAndNull() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}]"#,
            "CRMProject": #"[{"id": 10, "lead_id": 1}, {"id": 11, "lead_id": 1}]"#,
        ])
        let report = try await run.run(["CRMProject": #"[{"id": 10}, {"id": 11, "lead_id": null}]"#])
        #expect(try await run.ids("CRMProject", 10, "lead") == [1])
        #expect(try await run.ids("CRMProject", 11, "lead").isEmpty)
        #expect(report.dangling.isEmpty)
    }

    @Test("an entity declared before the one it reads through still connects after it")
    func orderAcrossEntities() async throws {
        let yaml = """
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
            """
        let order = ConnectionOrder.steps(of: try ConnectFixtures.schema(yaml)).map {
            "\($0.source.name).\($0.relationship.name)"
        }
        #expect(order == ["CRMTask.project", "CRMProject.client", "CRMTask.client"])
        let run = try StreamedRun(yaml)
        try await run.run([
            "CRMClient": #"[{"id": 7}]"#,
            "CRMProject": #"[{"id": 3, "client_id": 7}]"#,
            "CRMTask": #"[{"id": 1, "project_id": 3}]"#,
        ])
        #expect(try await run.ids("CRMTask", 1, "client") == [7])
    }
}
