import Foundation
import RMap
import Testing

/// `tap-csv-folder` (PyPI, built on the Meltano Singer SDK) over the CSV files in
/// `Tests/Fixtures/singer/csv`, feeding rmap as a `singer` source and through `--singer`.
@Suite("Singer: tap-csv-folder")
struct SingerCSVTapTests {
    /// The model: people own projects, tasks belong to projects (`stream: tasks`, identity from
    /// the tap's key_properties); `command` runs the tap.
    static func mapping(command: String) -> String {
        SingerWorkspace.mapping(
            source: """
                { plugin: singer, command: [\(command)], config: { filesystem: local, path: data, read_mode: one_stream_per_file } }
                """,
            more: """
                  CRMTask:
                    stream: tasks
                    attributes: { title: string, projectId: int, done: bool }
                    relationships:
                      project: { to_one: CRMProject, connect: { foreign_key: { projectId: id } } }
                """)
    }

    /// A wrapper that keeps the `--state` file the tap was given, and the `--config` file's path
    /// and the modes of it and its folder, then runs the tap.
    static let recordingTap = """
        #!/bin/sh
        previous=""
        for argument in "$@"; do
          [ "$previous" = "--state" ] && cp "$argument" received-state.json
          [ "$previous" = "--config" ] && echo "$argument" > config-path.txt &&
            stat -c %a "$argument" "$(dirname "$argument")" > config-modes.txt
          previous="$argument"
        done
        exec tap-csv-folder "$@"

        """

    /// The first run's graph: every record, each project linked to its owner and each task to
    /// its project, but the task naming project 99, the one dangling reference.
    private func expectFirstImport(_ report: SingerReport, workspace: SingerWorkspace) throws {
        #expect(report.result.status == 3, "\(report.result.stderr)")
        #expect(report.counts("CRMPerson")["inserted"] == 3)
        #expect(report.counts("CRMProject")["inserted"] == 4)
        #expect(report.counts("CRMProject")["dangling"] == 0)
        #expect(report.counts("CRMTask")["inserted"] == 4)
        #expect(report.dangling.count == 1)
        #expect(report.dangling.first?.contains("'project' found no CRMProject with id 99") == true)
        let keys = try workspace.workspace.rows(
            "SELECT singer_key FROM tasks WHERE title = 'Break the code'", store: "crm.sqlite")
        #expect(keys == [[.text(#"["data/tasks.csv",4]"#)]])
    }

    @Test("as a singer source: a connected graph, the state stored and passed back with --state")
    func source() async throws {
        let workspace = try SingerWorkspace(
            ["crm.yml": Self.mapping(command: "./recording-tap"), "recording-tap": Self.recordingTap], csv: true)
        chmod(workspace.workspace.path("recording-tap"), 0o755)
        try await expectFirstImport(try workspace.run(), workspace: workspace)
        // The config file was private to the user, and is gone after the run.
        #expect(
            try String(contentsOfFile: workspace.workspace.path("config-modes.txt"), encoding: .utf8) == "600\n700\n")
        let config = try String(contentsOfFile: workspace.workspace.path("config-path.txt"), encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: config.trimmingCharacters(in: .newlines)))
        let stored = try #require(try workspace.storedState("./recording-tap"))
        #expect(stored.contains(#""tasks":{"partitions""#))
        #expect(!FileManager.default.fileExists(atPath: workspace.workspace.path("received-state.json")))

        try workspace.workspace.write(
            "data/tasks.csv",
            String(contentsOfFile: workspace.workspace.path("data/tasks.csv"), encoding: .utf8)
                .replacingOccurrences(of: "Punch the cards", with: "Punch more cards"))
        let second = try await workspace.run()
        let received = try String(contentsOfFile: workspace.workspace.path("received-state.json"), encoding: .utf8)
        #expect(try JSONReader.parse(received, origin: "received") == JSONReader.parse(stored, origin: "stored"))
        // The tap sends every row again; the key_properties identity makes them the same objects.
        #expect(second.counts("CRMTask")["updated"] == 1)
        #expect(second.counts("CRMTask")["unchanged"] == 3)
        #expect(second.counts("CRMTask")["inserted"] == 0)
        #expect(try workspace.workspace.rows("SELECT count(*) FROM tasks", store: "crm.sqlite") == [[.integer(4)]])
    }

    @Test("piped through rmap run --singer: the same graph, the state kept under 'stdin'")
    func piped() async throws {
        let workspace = try SingerWorkspace(["crm.yml": Self.mapping(command: "tap-csv-folder")], csv: true)
        try workspace.workspace.write(
            "config.json", #"{"filesystem": "local", "path": "data", "read_mode": "one_stream_per_file"}"#)
        let stream = try await workspace.tap("tap-csv-folder", ["--config", "config.json"])
        try await expectFirstImport(try workspace.run(["--singer"], stdin: stream), workspace: workspace)
        let stored = try #require(try workspace.storedState("stdin"))
        #expect(stored.contains(#""people":{"partitions""#))
        // The tap did not run as a source: no state under its command.
        #expect(try workspace.storedState("tap-csv-folder") == nil)
    }
}
