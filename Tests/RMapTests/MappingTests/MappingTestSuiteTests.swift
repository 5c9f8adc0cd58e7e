import Foundation
import RMapSQLite
import Testing

@testable import RMap

/// Test files decode into cases (paths relative to the test file, payloads as JSON with YAML's
/// types), and the runner reports a payload it cannot read as the case's failure.
@Suite("MappingTestSuite and MappingTestRunner")
struct MappingTestSuiteTests {
    @Test("paths are relative to the test file; a payload keeps plain numbers and quoted strings apart")
    func decodes() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try folder.write(
            "tests/t.yml",
            """
            mappings: [../m.yml, /abs/n.yml]
            cases:
              - { name: one, entity: A, payload: { id: 12, price: "12.50", ok: true, none: null }, expect: { A: [] } }
              - { name: two, entity: A, payload_file: data/a.json, expect: {} }
            """)
        let path = folder.url.appendingPathComponent("tests/t.yml").path
        let suite = try MappingTestSuite.load(path)
        let directory = folder.url.appendingPathComponent("tests").path
        #expect(suite.mappings == ["\(directory)/../m.yml", "/abs/n.yml"])
        #expect(suite.cases.map(\.name) == ["one", "two"])
        guard case .inline(let json) = suite.cases[0].payload, case .file(let file) = suite.cases[1].payload else {
            Issue.record("payloads: \(suite.cases.map(\.payload))")
            return
        }
        #expect(JSONWriter.serialize(json) == #"{"id":12,"price":"12.50","ok":true,"none":null}"#)
        #expect(file == "\(directory)/data/a.json")
        #expect(suite.cases[0].expected.map(\.entity) == ["A"])
    }

    @Test("an unreadable test file, and one without cases, are errors at their first line")
    func unreadable() throws {
        #expect(throws: MappingError.self) { try MappingTestSuite.load("/nonexistent/t.yml") }
        let folder = try TemporaryDirectory()
        try folder.write("t.yml", "mappings: m.yml\n")
        let path = folder.url.appendingPathComponent("t.yml").path
        #expect {
            try MappingTestSuite.load(path)
        } throws: { error in
            (error as? MappingError)?.issues.map(\.description) == ["\(path):1:1: missing required key 'cases'"]
        }
    }

    @Test("edit, create and delete decode in file order; expect_push's requests keep their bodies as JSON")
    func decodesPushCases() throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "t.yml",
            """
            mappings: m.yml
            cases:
              - name: push
                entity: A
                payload: []
                delete: { A: [{ id: 2 }] }
                edit: { A: [{ id: 1, name: x }] }
                expect_push:
                  - { method: DELETE, path: /as/2.json }
                  - { method: PUT, path: /as/1.json, body: { a: { name: x, count: 2 } } }
            """)
        let testCase = try #require(MappingTestSuite.load(folder.url.appendingPathComponent("t.yml").path).cases.first)
        #expect(testCase.edits.map(\.kind) == [.delete, .edit])
        #expect(testCase.edits.map { $0.objects.map(\.values.count) } == [[1], [2]])
        let requests = try #require(testCase.expectedPush)
        #expect(requests.map(\.method) == ["DELETE", "PUT"])
        #expect(requests[0].body == nil)
        #expect(requests[1].body.map(JSONWriter.serialize) == #"{"a":{"name":"x","count":2}}"#)
        #expect(testCase.expected.isEmpty)
    }

    @Test("a payload file that cannot be read fails the case, naming it")
    func unreadablePayload() async throws {
        let model = try MappingLoader().load(
            documents: [("m.yml", "rmap: 1\nentities:\n  A:\n    attributes: { id: int }\n")])
        let testCase = MappingTestCase(
            name: "x", entity: "A", payload: .file("/nonexistent/a.json"), expected: [],
            mark: Mark(file: "t.yml", line: 3, column: 5))
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        let failures = await MappingTestRunner(model: model, registry: registry).run(testCase)
        #expect(failures.count == 1)
        #expect(failures.first?.description.hasPrefix("the run failed: ") == true)
        #expect(failures.first?.description.contains("/nonexistent/a.json") == true)
    }
}
