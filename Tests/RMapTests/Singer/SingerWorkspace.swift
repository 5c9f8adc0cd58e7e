import Foundation
import RMap
import Testing

/// A workspace for runs fed by the real Singer taps: `rmap` and the taps run
/// with the taps' venv first on `PATH`, and `--json` reports are read back.
struct SingerWorkspace {
    /// The folder, with the mapping file, the store and the tap's files.
    let workspace: RunWorkspace

    /// A mapping file over the taps' people and projects (`source` its source block, `more` further
    /// entities): each project linked to its owner by `personId`, into `crm.sqlite`.
    static func mapping(source: String, more: String = "") -> String {
        """
        rmap: 1
        source: \(source)
        naming: { entity_prefix: CRM, attributes: snake_case }
        store: { plugin: sqlite, path: crm.sqlite }
        entities:
          CRMPerson:
            attributes: { id: int, firstName: string, email: string }
            relationships:
              projects: { to_many: CRMProject, inverse: owner }
          CRMProject:
            attributes: { id: int, name: string, budget: decimal, personId: int }
            relationships:
              owner: { to_one: CRMPerson, inverse: projects, connect: { foreign_key: { personId: id } } }
        \(more)
        """
    }

    /// A workspace holding `files`, and the CSV fixtures under `data/` when `csv` is set.
    init(_ files: [String: String], csv: Bool = false) throws {
        workspace = try RunWorkspace(files)
        guard csv else { return }
        for name in ["people", "projects", "tasks"] {
            let text = try String(
                contentsOf: SingerTaps.fixtures.appendingPathComponent("csv/\(name).csv"), encoding: .utf8)
            try workspace.write("data/\(name).csv", text)
        }
    }

    /// Runs `rmap run crm.yml --json --quiet` and more `arguments`, with `stdin`.
    func run(_ arguments: [String] = [], stdin: String = "") async throws -> SingerReport {
        let result = try await CLIRunner.run(
            ["run", "crm.yml", "--json", "--quiet"] + arguments, in: workspace.url,
            environment: ["PATH": try SingerTaps.path()], stdin: stdin)
        return try SingerReport(result)
    }

    /// Runs a tap of the venv in the workspace and returns its Singer stream.
    func tap(_ name: String, _ arguments: [String]) async throws -> String {
        let result = try await CLIRunner.run(
            arguments, executable: "\(try SingerTaps.bin())/\(name)", in: workspace.url)
        #expect(result.status == 0, "\(name) failed: \(result.stderr)")
        return result.stdout
    }

    /// The Singer state the store holds for `key` (scope `singer`), as JSON text.
    func storedState(_ key: String) throws -> String? {
        let rows = try workspace.rows(
            "SELECT value FROM _rmap_state WHERE scope = 'singer' AND key = '\(key)'", store: "crm.sqlite")
        guard case .text(let text)? = rows.first?.first else { return nil }
        return text
    }
}

/// What `rmap run --json` printed, read back.
struct SingerReport {
    /// The process's output and status.
    let result: CLIResult
    /// The report document.
    let document: JSONValue

    init(_ result: CLIResult) throws {
        self.result = result
        document = try JSONReader.parse(result.stdout, origin: "stdout")
    }

    /// An entity's counts: `fetched`, `inserted`, `updated`, `unchanged`, `dangling`...
    func counts(_ entity: String) -> [String: Int] {
        let row = document.object?["entities"]?.array?.first { $0.object?["entity"]?.string == entity }
        var counts: [String: Int] = [:]
        for (key, value) in row?.object?.members ?? [] {
            if case .number(let text) = value { counts[key] = Int(text) }
        }
        return counts
    }

    /// The messages of the dangling references.
    var dangling: [String] {
        document.object?["dangling"]?.array?.compactMap { $0.object?["message"]?.string } ?? []
    }
}
