import Foundation
import RMap
import Testing

/// The `json` store on its SQLite engine, through the `rmap` binary: the document is what lasts
/// between processes (its bases, local edits made in it, the objects of remembered payloads).
@Suite("JSON store engine")
struct JSONStoreEngineTests {
    private static let mapping = """
        rmap: 1
        entities:
          Note:
            orphans: delete
            source: { plugin: file, path: notes.json, skip_unchanged: true }
            attributes:
              id: int
              text: string
        """

    private func workspace() throws -> RunWorkspace {
        try RunWorkspace([
            "m.yml": Self.mapping, "notes.json": #"[{"id": 1, "text": "one"}, {"id": 2, "text": "two"}]"#,
        ])
    }

    private func bytes(_ workspace: RunWorkspace) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: workspace.path("graph.json")))
    }

    @Test(
        "an edit of the document is a local edit: diff sees it, and a run or diff that changes nothing leaves the file alone"
    )
    func documentEdits() async throws {
        let workspace = try workspace()
        let store = ["--store", "json:graph.json"]
        #expect(try await workspace.rmap(["run", "m.yml", "--quiet", "--full"] + store).status == 0)
        let written = try String(contentsOf: URL(fileURLWithPath: workspace.path("graph.json")), encoding: .utf8)
        #expect(written.contains(#""_base":{"#))
        #expect(try await workspace.rmap(["diff", "m.yml"] + store).stdout == "0 requests: 0 POST, 0 PUT, 0 DELETE\n")

        // Ann's text edited in the row, not in its base.
        let parsed = try JSONReader.parse(bytes(workspace), origin: "graph.json")
        var document = try #require(parsed.object)
        let rows = document["notes"]?.array ?? []
        var notes = rows.compactMap(\.object)
        notes[0]["text"] = .string("uno")
        document["notes"] = .array(notes.map(JSONValue.object))
        try workspace.write("graph.json", JSONWriter.serialize(.object(document)))
        let edited = try bytes(workspace)
        let diff = try await workspace.rmap(["diff", "m.yml"] + store)
        #expect(diff.stdout == "PUT /notes/1.json {\"note\":{\"text\":\"uno\"}}\n1 request: 0 POST, 1 PUT, 0 DELETE\n")
        #expect(try bytes(workspace) == edited)
        // The payload is unchanged: the run skips it and keeps the local edit, changing nothing.
        #expect(try await workspace.rmap(["run", "m.yml", "--quiet"] + store).status == 0)
        #expect(try bytes(workspace) == edited)
    }

    @Test("the objects of a skipped payload are remembered in the document: a later run deletes no orphan")
    func rememberedObjects() async throws {
        let workspace = try workspace()
        let store = ["--store", "json:graph.json"]
        #expect(try await workspace.rmap(["run", "m.yml", "--quiet"] + store).status == 0)
        let written = try String(contentsOf: URL(fileURLWithPath: workspace.path("graph.json")), encoding: .utf8)
        #expect(written.contains(#""_rmap_remembered_notes":[{"payload":1,"entity":"Note","id":1}"#))
        #expect(written.contains(#""_rmap_payload_numbers":[{"payload":1,"origin":"notes.json"}]"#))
        let again = try await workspace.rmap(["run", "m.yml", "--json"] + store)
        #expect(again.status == 0, "\(again.stderr)")
        let status = try await workspace.rmap(["status", "m.yml"] + store)
        #expect(status.stdout.hasPrefix("entity  rows  create  update  delete  cursor  last sync\nNote       2"))
    }
}
