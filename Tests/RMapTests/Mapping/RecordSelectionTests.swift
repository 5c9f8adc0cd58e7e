import Testing

@testable import RMap

/// Records found in the payloads of `rmap run`'s streamed path, as the objects stored.
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

    /// The stored people's names, in the order they were written.
    static func names(_ run: StreamedRun) async throws -> [String] {
        try await run.reader().objects(of: "CRMPerson").fetchAll().compactMap {
            $0.values["name"].map(ValueText.display)
        }
    }

    /// The counts of people in `report`.
    static func counts(_ report: RunReport) -> EntityRunCounts? {
        report.entities.first { $0.entity == "CRMPerson" }
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
    func automaticShapes(json: String) async throws {
        let run = try StreamedRun(Self.model())
        let report = try await run.run(["CRMPerson": json])
        #expect(try await Self.names(run) == ["a", "b"])
        #expect(report.recordErrors == [])
    }

    @Test("a single wrapped object and a bare object are one record each", arguments: ["wrapped", "auto"])
    func singleObjects(root: String) async throws {
        let run = try StreamedRun(Self.model(root: root))
        try await run.run([
            "CRMPerson": #"{"person": {"id": 1, "name": "a"}}"#, "CRMPerson": #"{"id": 2, "name": "b"}"#,
        ])
        #expect(try await Self.names(run) == ["a", "b"])
    }

    @Test("root: bare never unwraps")
    func bareNeverUnwraps() async throws {
        let run = try StreamedRun(Self.model(root: "bare"))
        let report = try await run.run(["CRMPerson": #"[{"person": {"id": 1, "name": "a"}}]"#])
        #expect(try await Self.names(run).isEmpty)
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMPerson", attribute: "id", keyPath: "id", origin: "people.json", index: 0,
                    message: "identity attribute 'id' is missing: the record cannot be merged")
            ])
        let counts = Self.counts(report)
        #expect(counts?.fetched == 1 && counts?.rejected == 1 && counts?.unmappedKeys == 1 && counts?.inserted == 0)
    }

    @Test("records: picks the record array by key path")
    func recordsKeyPath() async throws {
        let run = try StreamedRun(Self.model(records: "data.items"))
        try await run.run([
            "CRMPerson": #"{"data": {"items": [{"id": 1, "name": "a"}, {"person": {"id": 2, "name": "b"}}]}}"#,
            "CRMPerson": #"{"data": {"items": {"id": 3, "name": "c"}}}"#,
            "CRMPerson": #"{"data": {"items": null}}"#,
        ])
        #expect(try await Self.names(run) == ["a", "b", "c"])
    }

    @Test("a document without the records: key path is a fetch error")
    func recordsKeyPathMissing() async throws {
        let run = try StreamedRun(Self.model(records: "data.items"))
        let document = try ModelFixtures.json(#"{"data": {"rows": []}}"#)
        let error = try await #require(throws: FetchError.self) {
            try await run.run(payloads: [
                Payload(origin: "https://api/people", entity: "CRMPerson", body: .document(document))
            ])
        }
        #expect(
            error.description
                == "https://api/people: no records at 'data.items' for CRMPerson (records: in the mapping)")
    }

    @Test("an element that is not an object is a record error, and mapping goes on")
    func nonObjectElement() async throws {
        let run = try StreamedRun(Self.model())
        let report = try await run.run(["CRMPerson": #"[7, {"id": 2, "name": "b"}]"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMPerson", value: "7", origin: "people.json", index: 0,
                    message: "expected an object, found a number")
            ])
        #expect(try await Self.names(run) == ["b"])
    }

    @Test("a file is streamed record by record: arrays and JSON Lines", arguments: ["people.json", "people.jsonl"])
    func files(name: String) async throws {
        let text =
            name.hasSuffix(".jsonl")
            ? "{\"id\": 1, \"name\": \"a\"}\n\n{\"person\": {\"id\": 2, \"name\": \"b\"}}\n{\"id\": \"x\"}\n"
            : #"[{"id": 1, "name": "a"}, {"person": {"id": 2, "name": "b"}}, {"id": "x"}]"#
        let path = try ModelFixtures.temporaryFile(text, name: name)
        let run = try StreamedRun(Self.model())
        let report = try await run.run(payloads: [
            Payload(origin: "samples/\(name)", entity: "CRMPerson", body: .file(path: path))
        ])
        #expect(try await Self.names(run) == ["a", "b"])
        #expect(report.recordErrors.map(\.index) == [2])
        #expect(report.recordErrors.map(\.origin) == ["samples/\(name)"])
    }

    @Test("a file holding one object is selected like a document")
    func fileDocument() async throws {
        let path = try ModelFixtures.temporaryFile(#"{"data": {"items": [{"id": 1, "name": "a"}]}}"#, name: "page.json")
        let run = try StreamedRun(Self.model(records: "data.items"))
        try await run.run(payloads: [Payload(origin: path, entity: "CRMPerson", body: .file(path: path))])
        #expect(try await Self.names(run) == ["a"])
    }

    @Test("an unreadable file throws a JSON error; the run stores nothing, what was stored stays")
    func invalidFile() async throws {
        let path = try ModelFixtures.temporaryFile(#"[{"id": 1, "name": "a"}, {"id": 2,"#, name: "broken.json")
        let run = try StreamedRun(Self.model())
        try await run.run(["CRMPerson": #"[{"id": 3, "name": "c"}]"#])
        await #expect(throws: JSONError.self) {
            try await run.run(payloads: [Payload(origin: path, entity: "CRMPerson", body: .file(path: path))])
        }
        #expect(try await Self.names(run) == ["c"])
    }

    @Test("records already selected are mapped as they are, unwrapping elements")
    func recordBodies() async throws {
        let run = try StreamedRun(Self.model())
        let records = try [#"{"id": 1, "name": "a"}"#, #"{"person": {"id": 2, "name": "b"}}"#].map {
            try ModelFixtures.json($0)
        }
        try await run.run(payloads: [Payload(origin: "exec", entity: "CRMPerson", body: .records(records))])
        #expect(try await Self.names(run) == ["a", "b"])
    }

    @Test("a payload for an unknown entity is a fetch error")
    func unknownEntity() async throws {
        let run = try StreamedRun(Self.model())
        await #expect(throws: FetchError.self) {
            try await run.run(payloads: [
                Payload(origin: "people.json", entity: "CRMPerson", body: .records([])),
                Payload(origin: "people.json", entity: "CRMPeople", body: .records([])),
            ])
        }
    }
}
