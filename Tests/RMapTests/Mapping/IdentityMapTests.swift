import RMap
import Testing

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

    @Test("one object per identity across payloads; later records update only the keys they have")
    func upsertAcrossPayloads() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 1, "name": "Ada", "email": "a@x"}, {"id": 2, "name": "Bob"}]"#, entity: "Person")
        try harness.map(#"[{"id": "1", "name": "Ada L."}]"#, entity: "Person", origin: "second.json")
        #expect(try harness.graph.objects(of: "Person").count == 2)
        let ada = try #require(try harness.object("Person", 1))
        #expect(ada[attribute: "name"] == .string("Ada L."))
        #expect(ada[attribute: "email"] == .string("a@x"))
        #expect(ada.origin == "second.json#0")
        #expect(harness.counts("Person") == EntityMappingCounts(fetched: 3, created: 2, updated: 1))
    }

    @Test("a composite identity needs every part")
    func compositeIdentity() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"[{"team_id": 1, "person_id": 2, "role": "lead"}, {"team_id": 1, "role": "x"}, {"team_id": 1, "person_id": 2, "role": "member"}]"#,
            entity: "Membership")
        let membership = try #require(try harness.graph.object(of: "Membership", identity: [.int(1), .int(2)]))
        #expect(membership[attribute: "role"] == .string("member"))
        #expect(
            harness.errors == [
                RecordError(
                    entity: "Membership", attribute: "personId", keyPath: "person_id", origin: "payload.json", index: 1,
                    message: "identity attribute 'personId' is missing: the record cannot be merged")
            ])
        #expect(harness.counts("Membership") == EntityMappingCounts(fetched: 3, created: 1, updated: 1, rejected: 1))
    }

    @Test("a null identity is a record error")
    func nullIdentity() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": null, "name": "x"}"#, entity: "Person")
        #expect(harness.errors.map(\.message) == ["identity attribute 'id' is null: the record cannot be merged"])
        #expect(harness.graph.count == 0)
    }

    @Test("an unreadable identity is reported once, as the bad value")
    func unreadableIdentity() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": "seven"}"#, entity: "Person")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "Person", attribute: "id", keyPath: "id", value: #""seven""#, origin: "payload.json",
                    index: 0,
                    message: #"cannot read "seven" as an int"#)
            ])
    }

    @Test("a rejected record changes nothing, not even the values it could read")
    func rejectedRecordChangesNothing() throws {
        let harness = try MappingHarness(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  name: string
                  age: int
            """)
        try harness.map(#"{"id": 1, "name": "Ada", "age": 36}"#, entity: "Person")
        try harness.map(#"{"id": 1, "name": "Eve", "age": "old"}"#, entity: "Person")
        let ada = try #require(try harness.object("Person", 1))
        #expect(ada[attribute: "name"] == .string("Ada"))
        #expect(ada[attribute: "age"] == .int(36))
        #expect(harness.counts("Person") == EntityMappingCounts(fetched: 2, created: 1, rejected: 1))
    }

    @Test("every problem of a record is reported")
    func everyProblemReported() throws {
        let harness = try MappingHarness(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  age: int
                  bornOn: date
            """)
        try harness.map(#"{"id": 3, "age": "x", "born_on": "y"}"#, entity: "Person")
        #expect(harness.errors.map(\.attribute) == ["age", "bornOn"])
        #expect(harness.errors.map(\.identity) == ["id=3", "id=3"])
    }

    @Test("a payload's fill sets the attributes its records lack")
    func fill() throws {
        let harness = try MappingHarness(
            """
            rmap: 1
            entities:
              Project:
                attributes:
                  id: int
                  personId: int
                  name: string
            """)
        try harness.map(
            #"[{"id": 1, "name": "a"}, {"id": 2, "person_id": 9}]"#, entity: "Project",
            fill: ["personId": .int(7), "unknown": .int(1)])
        #expect(try harness.object("Project", 1)?[attribute: "personId"] == .int(7))
        #expect(try harness.object("Project", 2)?[attribute: "personId"] == .int(9))
    }

    @Test("a fill can complete the identity")
    func fillIdentity() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"team_id": 4, "role": "lead"}]"#, entity: "Membership", fill: ["personId": .int(7)])
        #expect(
            try harness.graph.object(of: "Membership", identity: [.int(4), .int(7)])?[attribute: "role"] == .string("lead"))
    }
}
