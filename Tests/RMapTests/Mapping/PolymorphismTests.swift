import RMap
import Testing

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

    @Test(
        "the type key picks the entity: types:, the name without prefix, camelized values",
        arguments: [
            ("Boss", "CRMAdmin"), ("Admin", "CRMAdmin"), ("admin", "CRMAdmin"), ("robot_arm", "CRMRobotArm"),
            ("Person", "CRMPerson"), ("CRMAdmin", "CRMAdmin"),
        ])
    func typeKey(value: String, entity: String) throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 1, "type": "\#(value)", "level": 3, "model": "X"}]"#, entity: "CRMPerson")
        let object = try #require(try harness.object("CRMPerson", 1))
        #expect(object.type.name == entity)
        #expect(harness.counts(entity)?.created == 1)
    }

    @Test("a missing or null type key maps the payload's entity; the type key is not an unmapped key")
    func noType() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 1, "level": 3}, {"id": 2, "type": null}]"#, entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 1)?.type.name == "CRMPerson")
        #expect(try harness.object("CRMPerson", 2)?.type.name == "CRMPerson")
        #expect(harness.counts("CRMPerson")?.unmappedKeys == 1)
    }

    @Test("an unknown type is a record error")
    func unknownType() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 5, "type": "Alien"}]"#, entity: "CRMPerson", origin: "people.json")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMPerson", keyPath: "type", value: #""Alien""#, origin: "people.json", index: 0,
                    message: "unknown type 'Alien' for 'CRMPerson'")
            ])
        #expect(
            harness.errors.first?.description
                == "people.json record 0 (CRMPerson): key type: unknown type 'Alien' for 'CRMPerson'")
        #expect(harness.counts("CRMPerson") == EntityMappingCounts(fetched: 1, rejected: 1))
    }

    @Test("sub-entities share the root's identity map: a new type retypes the object")
    func retype() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "type": "Person", "name": "Ada"}"#, entity: "CRMPerson")
        try harness.map(#"{"id": 1, "type": "Admin", "level": 2}"#, entity: "CRMPerson")
        let object = try #require(try harness.object("CRMPerson", 1))
        #expect(try harness.graph.objects(of: "CRMPerson").count == 1)
        #expect(object.type.name == "CRMAdmin")
        #expect(object[attribute: "name"] == .string("Ada"))
        #expect(object[attribute: "level"] == .int(2))
        #expect(harness.counts("CRMAdmin") == EntityMappingCounts(fetched: 1, updated: 1))
    }

    @Test("a record that does not say its type keeps the object's sub-entity")
    func untypedKeepsSubentity() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "type": "Admin", "level": 2}"#, entity: "CRMPerson")
        try harness.map(#"{"id": 1, "name": "Ada", "level": 4}"#, entity: "CRMPerson")
        let object = try #require(try harness.object("CRMPerson", 1))
        #expect(object.type.name == "CRMAdmin")
        #expect(object[attribute: "level"] == .int(4))
        #expect(object[attribute: "name"] == .string("Ada"))
    }
}
