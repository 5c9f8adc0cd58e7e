import Foundation
import RMap
import RMapSQLite
import Testing

/// A temporary folder holding mapping files, payloads and the SQLite store of
/// one `rmap run` test; the folder is removed when the workspace is released.
final class RunWorkspace {
    /// `Tests/Fixtures/pipeline`.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pipeline")

    private let directory: TemporaryDirectory

    /// The folder.
    var url: URL { directory.url }

    /// Creates a workspace holding `files` (relative path -> text).
    init(_ files: [String: String] = [:]) throws {
        directory = try TemporaryDirectory()
        for (path, text) in files { try write(path, text) }
    }

    /// A workspace with the end-to-end model `crm.yml` and its payloads
    /// `data/people.json` and `data/projects.json` (each replaced by the text given).
    static func crm(people: String? = nil, projects: String? = nil) throws -> RunWorkspace {
        let workspace = try RunWorkspace()
        try workspace.copyFixture("crm.yml")
        try workspace.copyFixture("data/people.json")
        try workspace.copyFixture("data/projects.json")
        if let people { try workspace.write("data/people.json", people) }
        if let projects { try workspace.write("data/projects.json", projects) }
        return workspace
    }

    /// The absolute path of a file in the workspace.
    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Writes a file, creating its folders.
    func write(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Rewrites a file of the workspace with `text` replaced by `replacement`.
    func edit(_ relative: String, replacing text: String, with replacement: String) throws {
        let current = try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
        try #require(current.contains(text), "\(relative) holds no '\(text)'")
        try write(relative, current.replacingOccurrences(of: text, with: replacement))
    }

    /// Copies a file of `Tests/Fixtures/pipeline` into the workspace.
    func copyFixture(_ name: String, to relative: String? = nil) throws {
        try write(relative ?? name, String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8))
    }

    /// Runs `rmap arguments...` with the workspace as working directory.
    func rmap(_ arguments: [String], stdin: String = "") async throws -> CLIResult {
        try await CLIRunner.run(arguments, in: url, stdin: stdin)
    }

    /// `rmap run map.yml --quiet` and `extra`, expecting the exit status `status`.
    func runMap(
        _ extra: [String] = [], status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        let result = try await rmap(["run", "map.yml", "--quiet"] + extra)
        #expect(result.status == status, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// The rows an SQL query returns from an SQLite file of the workspace.
    func rows(_ sql: String, store: String = "rmap.sqlite") throws -> [[SQLiteValue]] {
        try #require(FileManager.default.fileExists(atPath: path(store)), "no store at \(store)")
        return try SQLiteConnection(path: path(store)).query(sql, [])
    }

    /// The bytes of a workspace file, or `nil` when there is none.
    func bytes(_ relative: String = "rmap.sqlite") -> Data? {
        FileManager.default.contents(atPath: path(relative))
    }

    /// The tables an SQLite file of the workspace holds (empty when the file is absent), without rmap's own.
    func tables(store: String = "rmap.sqlite") throws -> [String] {
        guard FileManager.default.fileExists(atPath: path(store)) else { return [] }
        return try SQLiteConnection(path: path(store))
            .query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name",
                []
            )
            .compactMap { row in if case .text(let name) = row.first { name } else { nil } }
    }
}

/// The `--json` report of a run, parsed.
struct RunJSON {
    /// The whole document.
    let document: [String: Any]

    /// Parses `rmap run --json` output.
    init(_ stdout: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        document = try #require(object as? [String: Any], "not a JSON object: \(stdout)")
    }

    /// `status`.
    var status: String? { document["status"] as? String }

    /// An entity's counts by name (`fetched`, `inserted`, ...).
    func counts(_ entity: String) -> [String: Int] {
        let entities = document["entities"] as? [[String: Any]] ?? []
        let line = entities.first { $0["entity"] as? String == entity } ?? [:]
        return line.compactMapValues { $0 as? Int }
    }

    /// The totals' counts.
    var totals: [String: Int] { (document["totals"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int } }

    /// The `rejected` entries.
    var rejected: [[String: Any]] { document["rejected"] as? [[String: Any]] ?? [] }

    /// The `dangling` entries.
    var dangling: [[String: Any]] { document["dangling"] as? [[String: Any]] ?? [] }
}
