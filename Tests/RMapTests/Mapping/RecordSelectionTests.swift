import RMap
import Testing

@Suite("Record selection")
struct RecordSelectionTests {
    static func model(root: String = "auto", records: String? = nil) -> String {
        """
        rmap: 1
        naming: { entity_prefix: CRM, root: \(root) }
        entities:
          CRMPerson:
            \(records.map { "records: \($0)" } ?? "")
            attributes:
              id: int
              name: string
        """
    }

    static func names(_ harness: MappingHarness) throws -> [String] {
        try harness.graph.objects(of: "CRMPerson").compactMap { $0[attribute: "name"].map(ValueText.display) }
    }

    @Test(
        "records are found in the shapes Rails APIs send",
        arguments: [
            #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#,
            #"{"people": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "meta": {"total": 2}}"#,
            #"[{"person": {"id": 1, "name": "a"}}, {"id": 2, "name": "b"}]"#,
            #"{"people": [{"person": {"id": 1, "name": "a"}}, {"person": {"id": 2, "name": "b"}}]}"#,
            #"{"members": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}"#,
        ])
    func automaticShapes(json: String) throws {
        let harness = try MappingHarness(Self.model())
        try harness.map(json, entity: "CRMPerson")
        #expect(try Self.names(harness) == ["a", "b"])
        #expect(harness.errors == [])
    }

    @Test("a single wrapped object and a bare object are one record each", arguments: ["wrapped", "auto"])
    func singleObjects(root: String) throws {
        let harness = try MappingHarness(Self.model(root: root))
        try harness.map(#"{"person": {"id": 1, "name": "a"}}"#, entity: "CRMPerson")
        try harness.map(#"{"id": 2, "name": "b"}"#, entity: "CRMPerson")
        #expect(try Self.names(harness) == ["a", "b"])
    }

    @Test("root: bare never unwraps")
    func bareNeverUnwraps() throws {
        let harness = try MappingHarness(Self.model(root: "bare"))
        try harness.map(#"[{"person": {"id": 1, "name": "a"}}]"#, entity: "CRMPerson", origin: "p.json")
        #expect(harness.graph.count == 0)
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMPerson", attribute: "id", keyPath: "id", origin: "p.json", index: 0,
                    message: "identity attribute 'id' is missing: the record cannot be merged")
            ])
        #expect(harness.counts("CRMPerson") == EntityMappingCounts(fetched: 1, rejected: 1, unmappedKeys: 1))
    }

    @Test("records: picks the record array by key path")
    func recordsKeyPath() throws {
        let harness = try MappingHarness(Self.model(records: "data.items"))
        try harness.map(
            #"{"data": {"items": [{"id": 1, "name": "a"}, {"person": {"id": 2, "name": "b"}}]}}"#, entity: "CRMPerson")
        try harness.map(#"{"data": {"items": {"id": 3, "name": "c"}}}"#, entity: "CRMPerson")
        try harness.map(#"{"data": {"items": null}}"#, entity: "CRMPerson")
        #expect(try Self.names(harness) == ["a", "b", "c"])
    }

    @Test("a document without the records: key path is a fetch error")
    func recordsKeyPathMissing() throws {
        let harness = try MappingHarness(Self.model(records: "data.items"))
        let error = try #require(throws: FetchError.self) {
            try harness.map(#"{"data": {"rows": []}}"#, entity: "CRMPerson", origin: "https://api/people")
        }
        #expect(
            error.description
                == "https://api/people: no records at 'data.items' for CRMPerson (records: in the mapping)")
    }

    @Test("an element that is not an object is a record error, and mapping goes on")
    func nonObjectElement() throws {
        let harness = try MappingHarness(Self.model())
        try harness.map(#"[7, {"id": 2, "name": "b"}]"#, entity: "CRMPerson")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMPerson", value: "7", origin: "payload.json", index: 0,
                    message: "expected an object, found a number")
            ])
        #expect(try Self.names(harness) == ["b"])
    }

    @Test("a file is streamed record by record: arrays and JSON Lines", arguments: ["people.json", "people.jsonl"])
    func files(name: String) throws {
        let text =
            name.hasSuffix(".jsonl")
            ? "{\"id\": 1, \"name\": \"a\"}\n\n{\"person\": {\"id\": 2, \"name\": \"b\"}}\n{\"id\": \"x\"}\n"
            : #"[{"id": 1, "name": "a"}, {"person": {"id": 2, "name": "b"}}, {"id": "x"}]"#
        let path = try ModelFixtures.temporaryFile(text, name: name)
        let harness = try MappingHarness(Self.model())
        try harness.mapper.map(Payload(origin: "samples/\(name)", entity: "CRMPerson", body: .file(path: path)))
        #expect(try Self.names(harness) == ["a", "b"])
        #expect(harness.errors.map(\.index) == [2])
        #expect(harness.errors.map(\.origin) == ["samples/\(name)"])
        #expect(try harness.object("CRMPerson", 2)?.origin == "samples/\(name)#1")
    }

    @Test("a file holding one object is selected like a document")
    func fileDocument() throws {
        let path = try ModelFixtures.temporaryFile(#"{"data": {"items": [{"id": 1, "name": "a"}]}}"#, name: "page.json")
        let harness = try MappingHarness(Self.model(records: "data.items"))
        try harness.mapper.map(Payload(origin: path, entity: "CRMPerson", body: .file(path: path)))
        #expect(try Self.names(harness) == ["a"])
    }

    @Test("an unreadable file throws a JSON error, keeping the records before it")
    func invalidFile() throws {
        let path = try ModelFixtures.temporaryFile(#"[{"id": 1, "name": "a"}, {"id": 2,"#, name: "broken.json")
        let harness = try MappingHarness(Self.model())
        #expect(throws: JSONError.self) {
            try harness.mapper.map(Payload(origin: path, entity: "CRMPerson", body: .file(path: path)))
        }
        #expect(try Self.names(harness) == ["a"])
    }

    @Test("records already selected are mapped as they are, unwrapping elements")
    func recordBodies() throws {
        let harness = try MappingHarness(Self.model())
        let records = try [#"{"id": 1, "name": "a"}"#, #"{"person": {"id": 2, "name": "b"}}"#].map {
            try ModelFixtures.json($0)
        }
        try harness.mapper.map(Payload(origin: "exec", entity: "CRMPerson", body: .records(records)))
        #expect(try Self.names(harness) == ["a", "b"])
    }

    @Test("a payload for an unknown entity is a fetch error")
    func unknownEntity() throws {
        let harness = try MappingHarness(Self.model())
        #expect(throws: FetchError.self) { try harness.map("[]", entity: "CRMPeople") }
    }
}
