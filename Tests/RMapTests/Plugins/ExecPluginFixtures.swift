import Foundation
import RMap
import RMapSQLite
import Testing

/// `Tests/Fixtures/plugins`: `people.yml`, whose exec stage (`enrich.py`) and exec
/// transformer (`upcase.py`) are Python programs, and its payload `people.json`.
enum ExecPluginFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plugins")

    /// A workspace holding the fixtures, `people.yml` with `edits` applied (text -> replacement).
    static func workspace(_ edits: KeyValuePairs<String, String> = [:]) throws -> RunWorkspace {
        let workspace = try RunWorkspace()
        for name in ["people.json", "enrich.py", "upcase.py"] {
            try workspace.write(name, String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
        }
        var mapping = try String(contentsOf: folder.appendingPathComponent("people.yml"), encoding: .utf8)
        for (text, replacement) in edits { mapping = mapping.replacingOccurrences(of: text, with: replacement) }
        try workspace.write("people.yml", mapping)
        return workspace
    }

    /// The stage's command run in a test mode (`enrich.py wrong-type`).
    static func stage(_ mode: String) -> KeyValuePairs<String, String> {
        ["[python3, enrich.py]": "[python3, enrich.py, \(mode)]"]
    }

    /// The transformer's command run in a test mode (`upcase.py fail`).
    static func transformer(_ mode: String) -> KeyValuePairs<String, String> {
        ["[python3, upcase.py]": "[python3, upcase.py, \(mode)]"]
    }

    /// The rows of `people` after a successful run.
    static let enriched: [[SQLiteValue]] = [
        [.integer(1), .text("ADA LOVELACE"), .text("ada.lovelace@example.com"), .integer(90), .text("high")],
        [.integer(2), .text("GRACE HOPPER"), .text("grace@navy.mil"), .integer(85), .text("high")],
        [.integer(3), .text("ALAN TURING"), .text("alan.turing@example.com"), .integer(70), .text("low")],
    ]

    static let query = "SELECT id, name, email, score, rank FROM people ORDER BY id"

    /// The standard plugins and SQLite.
    static func registry() -> PluginRegistry {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        return registry
    }

    /// Loads `people.yml` of the workspace.
    static func load(_ workspace: RunWorkspace) throws -> MappingModel {
        try MappingLoader(environment: [:], catalog: registry().catalog).load([workspace.path("people.yml")])
    }

    /// The messages (one a line) of the mapping error that `people.yml` with `edits` makes.
    static func issues(_ edits: KeyValuePairs<String, String>) throws -> String? {
        let workspace = try workspace(edits)
        let error = #expect(throws: MappingError.self) { try load(workspace) }
        return error?.issues.map(\.message).joined(separator: "\n")
    }

    /// Runs `people.yml` of the workspace through the library.
    static func run(_ workspace: RunWorkspace, strict: Bool = false) async throws -> RunResult {
        try await Pipeline(model: load(workspace), registry: registry()).run(RunOptions(strict: strict))
    }
}
