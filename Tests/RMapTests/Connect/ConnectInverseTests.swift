import Testing

@testable import RMap

/// Inverses follow every link a connection makes or removes. Each case runs
/// `rmap run`'s streamed path into a SQLite store and reads the inverses back.
@Suite("Connect: inverses")
struct ConnectInverseTests {
    let run: StreamedRun

    init() throws {
        run = try StreamedRun(ConnectFixtures.crm)
    }

    @Test("a to-one's to-many inverse holds every source, in the sources' order")
    func toOneWithToManyInverse() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 1}, {"id": 11, "person_id": 1}]"#,
        ])
        #expect(try await run.ids("CRMPerson", 1, "ownedProjects") == [10, 11])
    }

    @Test("a to-many's to-many inverse holds every source linking to it")
    func toManyWithToManyInverse() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}]"#,
            "CRMProject": #"[{"id": 10, "team_member_ids": [1, 2]}, {"id": 11, "team_member_ids": [2]}]"#,
        ])
        #expect(try await run.ids("CRMPerson", 1, "memberOf") == [10])
        #expect(try await run.ids("CRMPerson", 2, "memberOf") == [10, 11])
    }

    @Test("a to-one's to-one inverse is the source")
    func toOneWithToOneInverse() async throws {
        try await run.run(["CRMDesk": #"[{"id": 7}]"#, "CRMPerson": #"[{"id": 1, "desk_id": 7}]"#])
        #expect(try await run.ids("CRMDesk", 7, "occupant") == [1])
    }

    @Test("connecting again changes nothing: no inverse holds a source twice")
    func idempotent() async throws {
        let payloads: KeyValuePairs = [
            "CRMPerson": #"[{"id": 1, "desk_id": 7}]"#,
            "CRMDesk": #"[{"id": 7}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 1, "team_member_ids": [1]}]"#,
        ]
        try await run.run(payloads)
        let first = try await run.links("CRMProject", ConnectFixtures.projectConnections)
        let second = try await run.run(payloads)
        #expect(try await run.ids("CRMPerson", 1, "ownedProjects") == [10])
        #expect(try await run.ids("CRMPerson", 1, "memberOf") == [10])
        #expect(try await run.ids("CRMProject", 10, "owner") == [1])
        #expect(try await run.ids("CRMDesk", 7, "occupant") == [1])
        #expect(try await run.links("CRMProject", ConnectFixtures.projectConnections) == first)
        #expect(second.totals.updated == 0 && second.totals.inserted == 0)
    }

    @Test("a link replaced by a new value leaves no stale inverse")
    func replacedLinks() async throws {
        try await run.run([
            "CRMPerson": #"[{"id": 1}, {"id": 2}]"#,
            "CRMProject": #"[{"id": 10, "person_id": 1, "team_member_ids": [1, 2]}]"#,
        ])
        #expect(try await run.ids("CRMPerson", 1, "ownedProjects") == [10])
        #expect(try await run.ids("CRMPerson", 1, "memberOf") == [10])
        try await run.run(["CRMProject": #"[{"id": 10, "person_id": 2, "team_member_ids": [2]}]"#])
        #expect(try await run.ids("CRMPerson", 1, "ownedProjects").isEmpty)
        #expect(try await run.ids("CRMPerson", 2, "ownedProjects") == [10])
        #expect(try await run.ids("CRMPerson", 1, "memberOf").isEmpty)
        #expect(try await run.ids("CRMPerson", 2, "memberOf") == [10])
    }

    @Test("a to-one inverse claimed by another source moves to it, and the previous holder lets go")
    func toOneInverseMoves() async throws {
        try await run.run(["CRMDesk": #"[{"id": 7}]"#, "CRMPerson": #"[{"id": 1, "desk_id": 7}]"#])
        try await run.run(["CRMPerson": #"[{"id": 1, "desk_id": 7}, {"id": 2, "desk_id": 7}]"#])
        #expect(try await run.ids("CRMPerson", 2, "desk") == [7])
        #expect(try await run.ids("CRMDesk", 7, "occupant") == [2])
        #expect(try await run.ids("CRMPerson", 1, "desk").isEmpty, "the last source to claim a one-to-one keeps it")
        // The attribute stays as the server sent it.
        #expect(try await run.object("CRMPerson", 1).values["deskId"] == .int(7))
    }

    @Test("the inverse of a composite-keyed to-one follows its account")
    func compositeInverse() async throws {
        try await run.run([
            "CRMAccount": #"[{"id": 5, "region": "eu"}, {"id": 5, "region": "us"}]"#,
            "CRMPerson": #"[{"id": 1, "account_id": 5, "region": "eu"}]"#,
        ])
        let before = try #require(try await run.reader().object("CRMAccount", identity: [.int(5), .string("eu")]))
        #expect(StreamedRun.ids(try await before.related("people")) == [1])
        try await run.run(["CRMPerson": #"[{"id": 1, "account_id": 5, "region": "us"}]"#])
        let reader = try run.reader()
        let eu = try #require(try await reader.object("CRMAccount", identity: [.int(5), .string("eu")]))
        let us = try #require(try await reader.object("CRMAccount", identity: [.int(5), .string("us")]))
        #expect(try await eu.related("people").isEmpty)
        #expect(StreamedRun.ids(try await us.related("people")) == [1])
    }

    @Test("a nested relationship is left as mapped and its inverse is filled")
    func nestedInverse() async throws {
        try await run.run(["CRMPerson": #"[{"id": 1, "notes": [{"id": 3}]}]"#])
        #expect(try await run.ids("CRMPerson", 1, "notes") == [3])
        #expect(try await run.ids("CRMNote", 3, "author") == [1])
    }
}
