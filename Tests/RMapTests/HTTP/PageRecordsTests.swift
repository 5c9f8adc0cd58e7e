import RMap
import Testing

@testable import RMapHTTP

/// Paging stops on a short page, so a page's records must be counted as the mapper selects them.
@Suite("HTTP page record counts")
struct PageRecordsTests {
    private func person(root: String) throws -> EntityMapping {
        let catalog = PluginCatalog(sources: ["file": ["path"]], stores: [:], transformers: [])
        let yaml = "rmap: 1\nnaming: { root: \(root) }\nentities:\n  Person:\n    attributes: { id: int }\n"
        let model = try MappingLoader(environment: [:], catalog: catalog).load(documents: [("m.yml", yaml)])
        return try #require(model.entity(named: "Person"))
    }

    @Test(
        "wrappers count their records, with or without other keys",
        arguments: [
            (#"[{"id": 1}, {"id": 2}]"#, 2), (#"{"people": [{"id": 1}, {"id": 2}], "meta": {"next": 3}}"#, 2),
            (#"{"members": [{"id": 1}, {"id": 2}, {"id": 3}]}"#, 3), (#"{"person": {"id": 1}}"#, 1), ("[]", 0),
        ])
    func counts(json: String, expected: Int) throws {
        let document = try JSONReader.parse(json, origin: "page")
        #expect(PageRecords.count(in: document, for: try person(root: "auto")) == expected)
    }

    @Test("root: bare counts an object as one record")
    func bare() throws {
        let document = try JSONReader.parse(#"{"id": 7, "people": [{"id": 1}, {"id": 2}], "meta": {}}"#, origin: "page")
        #expect(PageRecords.count(in: document, for: try person(root: "bare")) == 1)
        // Without the identity, an object holding an array of objects is a payload that lacks `records:`.
        let unwrapped = try JSONReader.parse(#"{"people": [{"id": 1}, {"id": 2}], "meta": {}}"#, origin: "page")
        #expect(throws: FetchError.self) {
            try RecordSelection.records(in: unwrapped, for: try person(root: "bare"), origin: "page")
        }
    }
}
