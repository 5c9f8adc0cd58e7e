import Foundation
import RMapSQLite
import Testing

/// `rmap run` end to end: a run reads what the store holds before mapping, so a
/// partial payload for a stored object neither applies defaults nor fails
/// `required` (MAPPING.md §8), while a new object still does.
@Suite("rmap run: partial payloads")
struct PartialPayloadRunTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Person:
            attributes:
              id: int
              name: { type: string, required: true }
              status: { type: string, default: active }
              archived: { type: bool, default: false, default_on_missing: true }
        store: { plugin: sqlite, path: rmap.sqlite }
        """

    @Test("a stored object's missing keys keep their values; a new object gets defaults and required")
    func partialPayload() async throws {
        let workspace = try RunWorkspace([
            "crm.yml": Self.mapping,
            "people.json": #"[{"id": 1, "name": "Ann", "status": "inactive", "archived": true}]"#,
        ])
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)

        try workspace.write("people.json", #"[{"id": 1}, {"id": 2, "name": "Bo"}]"#)
        let partial = try await workspace.rmap(["run", "crm.yml", "--quiet"])
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(
            try workspace.rows("SELECT id, name, status, archived FROM people ORDER BY id") == [
                [.integer(1), .text("Ann"), .text("inactive"), .integer(0)],
                [.integer(2), .text("Bo"), .text("active"), .integer(0)],
            ])

        try workspace.write("people.json", #"[{"id": 3}]"#)
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 3)
    }
}
