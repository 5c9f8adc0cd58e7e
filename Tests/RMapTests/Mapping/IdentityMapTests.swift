import Testing

@testable import RMap

/// One object per identity in `rmap run`'s streamed path, read back from the store.
@Suite("Identity map")
struct IdentityMapTests {
    static let model = """
        rmap: 1
        entities:
          Person:
            attributes:
              id: int
              name: string
              email: string
          Membership:
            identity: [teamId, personId]
            attributes:
              teamId: int
              personId: int
              role: string
        """

    /// Fetched, inserted and rejected records of `entity` in `report`.
    static func counts(_ report: RunReport, _ entity: String) -> [Int] {
        let counts = report.entities.first { $0.entity == entity }
        return [counts?.fetched ?? -1, counts?.inserted ?? -1, counts?.rejected ?? -1]
    }

    /// The people of a one-entity model with these attributes.
    static func people(_ attributes: String) -> String {
        """
        rmap: 1
        entities:
          Person:
            attributes: { id: int, \(attributes) }
        """
    }

    @Test("one object per identity across payloads; later records update only the keys they have")
    func upsertAcrossPayloads() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "Person": #"[{"id": 1, "name": "Ada", "email": "a@x"}, {"id": 2, "name": "Bob"}]"#,
            "Person": #"[{"id": "1", "name": "Ada L."}]"#,
        ])
        #expect(try await run.reader().objects(of: "Person").fetchAll().count == 2)
        let ada = try await run.object("Person", 1)
        #expect(ada.values["name"] == .string("Ada L."))
        #expect(ada.values["email"] == .string("a@x"))
        #expect(Self.counts(report, "Person") == [3, 2, 0])
    }

    @Test("a composite identity needs every part")
    func compositeIdentity() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "Membership":
                #"[{"team_id": 1, "person_id": 2, "role": "lead"}, {"team_id": 1, "role": "x"}, {"team_id": 1, "person_id": 2, "role": "member"}]"#
        ])
        let membership = try #require(try await run.reader().object("Membership", identity: [.int(1), .int(2)]))
        #expect(membership.values["role"] == .string("member"))
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "Membership", attribute: "personId", keyPath: "person_id", origin: "memberships.json",
                    index: 1, message: "identity attribute 'personId' is missing: the record cannot be merged")
            ])
        #expect(Self.counts(report, "Membership") == [3, 1, 1])
    }

    @Test("a null identity is a record error")
    func nullIdentity() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["Person": #"{"id": null, "name": "x"}"#])
        #expect(report.recordErrors.map(\.message) == ["identity attribute 'id' is null: the record cannot be merged"])
        #expect(try await run.reader().objects(of: "Person").fetchAll().isEmpty)
    }

    @Test("an unreadable identity is reported once, as the bad value")
    func unreadableIdentity() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["Person": #"{"id": "seven"}"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "Person", attribute: "id", keyPath: "id", value: #""seven""#, origin: "people.json",
                    index: 0,
                    message: #"cannot read "seven" as an int"#)
            ])
    }

    @Test("a rejected record changes nothing, not even the values it could read")
    func rejectedRecordChangesNothing() async throws {
        let run = try StreamedRun(Self.people("name: string, age: int"))
        let report = try await run.run([
            "Person": #"{"id": 1, "name": "Ada", "age": 36}"#, "Person": #"{"id": 1, "name": "Eve", "age": "old"}"#,
        ])
        let ada = try await run.object("Person", 1)
        #expect(ada.values["name"] == .string("Ada"))
        #expect(ada.values["age"] == .int(36))
        #expect(Self.counts(report, "Person") == [2, 1, 1])
    }

    @Test("every problem of a record is reported")
    func everyProblemReported() async throws {
        let run = try StreamedRun(Self.people("age: int, bornOn: date"))
        let report = try await run.run(["Person": #"{"id": 3, "age": "x", "born_on": "y"}"#])
        #expect(report.recordErrors.map(\.attribute) == ["age", "bornOn"])
        #expect(report.recordErrors.map(\.identity) == ["id=3", "id=3"])
    }

    @Test("a payload's fill sets the attributes its records lack")
    func fill() async throws {
        let run = try StreamedRun(
            """
            rmap: 1
            entities:
              Project:
                attributes:
                  id: int
                  personId: int
                  name: string
            """)
        let document = try ModelFixtures.json(#"[{"id": 1, "name": "a"}, {"id": 2, "person_id": 9}]"#)
        try await run.run(payloads: [
            Payload(
                origin: "projects.json", entity: "Project", body: .document(document),
                fill: ["personId": .int(7), "unknown": .int(1)])
        ])
        #expect(try await run.object("Project", 1).values["personId"] == .int(7))
        #expect(try await run.object("Project", 2).values["personId"] == .int(9))
    }

    @Test("a fill can complete the identity")
    func fillIdentity() async throws {
        let run = try StreamedRun(Self.model)
        let document = try ModelFixtures.json(#"[{"team_id": 4, "role": "lead"}]"#)
        try await run.run(payloads: [
            Payload(
                origin: "memberships.json", entity: "Membership", body: .document(document), fill: ["personId": .int(7)]
            )
        ])
        let membership = try await run.reader().object("Membership", identity: [.int(4), .int(7)])
        #expect(membership?.values["role"] == .string("lead"))
    }
}
