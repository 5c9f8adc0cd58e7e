import Foundation
import RMap
import Testing

/// `rmap run --json` against its schema in docs/cli.md: the output has exactly the documented fields,
/// each of the documented type, so neither can drift from the other.
@Suite("rmap run --json: the documented schema")
struct RunJSONSchemaTests {
    /// The rows of docs/cli.md's "The run JSON document" table: field path (`rejected[].key`) to its JSON types.
    static func documented() throws -> [String: Set<String>] {
        let page = try String(
            contentsOf: TestServers.repositoryRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "### The run JSON document\n").dropFirst().first)
        var fields: [String: Set<String>] = [:]
        for line in section.components(separatedBy: "\n## ")[0].split(separator: "\n") {
            guard let row = line.wholeMatch(of: /\| `([a-z_\[\].]+)` \| ([a-z \[\]]+) \|.*/) else { continue }
            let types = row.2.split(separator: " or ").map { $0.hasPrefix("[") ? "array" : String($0) }
            fields[String(row.1)] = Set(types)
        }
        return fields
    }

    /// Every field path in `value` with the JSON type found there; `totals` stands for itself.
    static func fields(_ value: JSONValue, path: String = "") -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        switch value {
        case .object(let object):
            for (key, child) in object.members {
                let name = path.isEmpty ? key : "\(path).\(key)"
                found[name, default: []].insert(type(of: child))
                if key != "totals" { found.merge(fields(child, path: name)) { $0.union($1) } }
            }
        case .array(let items):
            for item in items { found.merge(fields(item, path: path + "[]")) { $0.union($1) } }
        default:
            break
        }
        return found
    }

    static func type(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .number(let text): Int(text) == nil ? "number" : "int"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    @Test(
        "the report, the failure and the invalid documents have exactly the documented fields, of the documented types"
    )
    func schema() async throws {
        let documented = try Self.documented()
        #expect(documented.count > 30, "the table was not found: \(documented)")
        // The page's own example: a date that cannot be read and a missing manager.
        var files: [String: String] = [:]
        let markdown = try String(
            contentsOf: TestServers.repositoryRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        for case .file(let name, let text) in DocTranscript(markdown: markdown).steps { files[name] = text }
        let workspace = try RunWorkspace(files.filter { $0.key.hasPrefix("people.") })
        let run = try await workspace.rmap(["run", "people.yml", "--store", "memory:", "--json", "--quiet"])
        #expect(run.status == 3, "\(run.stderr)")
        let report = try JSONReader.parse(run.stdout, origin: "stdout")
        try FileManager.default.removeItem(atPath: workspace.path("people.json"))
        let failed = try await workspace.rmap(["run", "people.yml", "--store", "memory:", "--json", "--quiet"])
        #expect(failed.status == 1)
        let failure = try JSONReader.parse(failed.stdout, origin: "stdout")

        try workspace.write("typo.yml", "rmap: 1\nentities:\n  Note:\n    attributes: { id: int, body: strng }\n")
        let invalid = try await workspace.rmap(["run", "typo.yml", "--json", "--quiet"])
        #expect(invalid.status == 2)
        let invalidDocument = try JSONReader.parse(invalid.stdout, origin: "stdout")
        let unknownEntity = try await workspace.rmap(["run", "people.yml", "--only", "Persn", "--json", "--quiet"])
        #expect(unknownEntity.status == 2)
        let unknownDocument = try JSONReader.parse(unknownEntity.stdout, origin: "stdout")
        #expect(unknownDocument.object?["status"] == .string("invalid"))

        let actual = [report, failure, invalidDocument, unknownDocument].map { Self.fields($0) }
            .reduce(into: [:]) { all, fields in all.merge(fields) { $0.union($1) } }
        #expect(Set(actual.keys) == Set(documented.keys))
        for (field, types) in actual {
            #expect(types.isSubset(of: documented[field] ?? []), "\(field): \(types) in the output")
        }
        let totals = Set(report.object?["totals"]?.object?.keys ?? [])
        #expect(totals == Set(actual.keys.filter { $0.hasPrefix("entities[].") }.map { String($0.dropFirst(11)) }))
    }
}
