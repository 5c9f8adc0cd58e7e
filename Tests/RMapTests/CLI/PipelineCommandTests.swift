import Foundation
import Testing

/// `rmap run` around the pipeline: `--store` resolution, `--only` and progress output.
@Suite("rmap run: stores, --only and progress")
struct PipelineCommandTests {
    /// A one-entity mapping and its payload in a fresh directory.
    private func project(store: String = "") throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write(
            "m.yml",
            "rmap: 1\nsource: { plugin: file, path: '{collection}.json' }\n\(store)entities:\n"
                + "  Item:\n    attributes:\n      id: int\n      name: string\n")
        try directory.write("items.json", #"[{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]"#)
        return directory
    }

    @Test(
        "--store picks the store: sqlite paths, json and memory",
        arguments: [
            (["--store", "sqlite:x.sqlite"], "x.sqlite"), (["--store", "rmap.db"], "rmap.db"),
            (["--store", "json:out.json"], "out.json"), (["--store", "./odd:name.sqlite"], "odd:name.sqlite"),
            ([], "rmap.sqlite"), (["--store", "memory:"], ""),
        ])
    func storeSelection(options: [String], file: String) async throws {
        let directory = try project()
        let result = try await CLIRunner.run(["run", "m.yml", "--quiet"] + options, in: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        let itemLine = result.stdout.split(separator: "\n").first { $0.hasPrefix("Item ") }
        #expect(itemLine?.split(separator: " ") == ["Item", "2", "2", "0", "0", "0", "0", "0", "0"])
        if !file.isEmpty {
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(file).path))
        }
    }

    @Test("the store of the mapping files is used when --store is absent")
    func fileStore() async throws {
        let directory = try project(store: "store: { plugin: json, path: kept.json }\n")
        let result = try await CLIRunner.run(["run", "m.yml", "--quiet"], in: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        let stored = try String(contentsOf: directory.url.appendingPathComponent("kept.json"), encoding: .utf8)
        #expect(stored.contains("\"two\""))
    }

    @Test("an unknown --only entity is a usage error naming the closest entity")
    func onlyUnknown() async throws {
        let result = try await CLIRunner.run([
            "run", "crm.yml", "--quiet", "--only", "CRMPerson", "--only", "CRMProjet,CRMAdmin",
        ])
        #expect(result.stderr == "Error: unknown entity 'CRMProjet' in --only (did you mean 'CRMProject'?)\n")
        #expect(result.status == 2)
    }

    @Test("mapping errors stop every command with exit 2", arguments: ["run", "diff", "push"])
    func mappingErrors(command: String) async throws {
        let result = try await CLIRunner.run([command, "misspelt.yml", "--store", "memory:"])
        #expect(
            result.stderr.contains(
                "misspelt.yml:14:11: unknown key 'forign_key' in connect (did you mean 'foreign_key'?)\n"))
        #expect(result.status == 2)
    }

    @Test("progress: plain lines on stderr when it is not a terminal, nothing with --quiet")
    func progressLines() async throws {
        let directory = try project()
        let plain = try await CLIRunner.run(["run", "m.yml", "--store", "memory:"], in: directory.url)
        #expect(plain.stderr.hasPrefix("load: started\nload: done in "))
        #expect(plain.stderr.contains("\nfetch: started\nfetched Item: 2 records from items.json (52 B) in "))
        #expect(plain.stderr.contains("persist: done in "))
        let quiet = try await CLIRunner.run(["run", "m.yml", "--store", "memory:", "--quiet"], in: directory.url)
        #expect(quiet.stderr == "")
        #expect(quiet.stdout == plain.stdout)
    }
}
