import Testing

@testable import RMap

/// Type keys through `rmap run`'s streamed path: the entity each record's object is stored as.
@Suite("Polymorphic records")
struct PolymorphismTests {
    static let model = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            type_key: type
            types: { Boss: CRMAdmin }
            attributes:
              id: int
              name: string
          CRMAdmin:
            extends: CRMPerson
            attributes:
              level: int
          CRMRobotArm:
            extends: CRMPerson
            attributes:
              model: string
        """

    /// The counts of `entity` in `report`.
    static func counts(_ report: RunReport, _ entity: String) -> EntityRunCounts? {
        report.entities.first { $0.entity == entity }
    }

    @Test(
        "the type key picks the entity: types:, the name without prefix, camelized values",
        arguments: [
            ("Boss", "CRMAdmin"), ("Admin", "CRMAdmin"), ("admin", "CRMAdmin"), ("robot_arm", "CRMRobotArm"),
            ("Person", "CRMPerson"), ("CRMAdmin", "CRMAdmin"),
        ])
    func typeKey(value: String, entity: String) async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["CRMPerson": #"[{"id": 1, "type": "\#(value)", "level": 3, "model": "X"}]"#])
        #expect(try await run.object("CRMPerson", 1).entity == entity)
        #expect(Self.counts(report, entity)?.inserted == 1)
    }

    @Test("a missing or null type key maps the payload's entity; the type key is not an unmapped key")
    func noType() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["CRMPerson": #"[{"id": 1, "level": 3}, {"id": 2, "type": null}]"#])
        #expect(try await run.object("CRMPerson", 1).entity == "CRMPerson")
        #expect(try await run.object("CRMPerson", 2).entity == "CRMPerson")
        #expect(Self.counts(report, "CRMPerson")?.unmappedKeys == 1)
    }

    @Test("an unknown type is a record error")
    func unknownType() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["CRMPerson": #"[{"id": 5, "type": "Alien"}]"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMPerson", keyPath: "type", value: #""Alien""#, origin: "people.json", index: 0,
                    message: "unknown type 'Alien' for 'CRMPerson'")
            ])
        #expect(
            report.recordErrors.first?.description
                == "people.json record 0 (CRMPerson): key type: unknown type 'Alien' for 'CRMPerson'")
        let counts = Self.counts(report, "CRMPerson")
        #expect(counts?.fetched == 1 && counts?.rejected == 1 && counts?.inserted == 0)
        #expect(try await run.reader().objects(of: "CRMPerson").fetchAll().isEmpty)
    }

    @Test("sub-entities share the root's identity map: a new type retypes the object")
    func retype() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMPerson": #"{"id": 1, "type": "Person", "name": "Ada"}"#,
            "CRMPerson": #"{"id": 1, "type": "Admin", "level": 2}"#,
        ])
        let object = try await run.object("CRMPerson", 1)
        #expect(try await run.reader().objects(of: "CRMPerson").fetchAll().count == 1)
        #expect(object.entity == "CRMAdmin")
        #expect(object.values["name"] == .string("Ada"))
        #expect(object.values["level"] == .int(2))
        #expect(Self.counts(report, "CRMAdmin")?.fetched == 1)
    }

    @Test("a record that does not say its type keeps the object's sub-entity, in the run and in the store")
    func untypedKeepsSubentity() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run([
            "CRMPerson": #"{"id": 1, "type": "Admin", "level": 2}"#,
            "CRMPerson": #"{"id": 1, "name": "Ada", "level": 4}"#,
        ])
        let object = try await run.object("CRMPerson", 1)
        #expect(object.entity == "CRMAdmin")
        #expect(object.values["level"] == .int(4))
        #expect(object.values["name"] == .string("Ada"))
        // The stored admin is an admin for the next run's untyped record too.
        try await run.run(["CRMPerson": #"{"id": 1, "name": "Ada", "level": 5}"#])
        let stored = try await run.object("CRMPerson", 1)
        #expect(stored.entity == "CRMAdmin")
        #expect(stored.values["level"] == .int(5))
    }
}
