import Testing

/// `--dry-run` does all the work and leaves the directory as it found it.
@Suite("rmap --dry-run: no file is created")
struct DryRunFilesTests {
    @Test(
        "run --dry-run creates no store file",
        arguments: [
            [], ["--store", "crm.sqlite"], ["--store", "sqlite:out/../crm.sqlite"], ["--store", "json:graph.json"],
        ])
    func run(store: [String]) async throws {
        let workspace = try ExampleWorkspace.make()
        let before = try ExampleWorkspace.files(workspace)
        let result = try await workspace.rmap(
            ["run", "mappings/crm.yml", "mappings/work.yml", "--dry-run", "--quiet"] + store)
        #expect(
            result.stdout.hasSuffix(
                "total            67        67        0          0         0         0        0         0\ndry run: nothing was written\n"
            ))
        #expect(result.stderr == "")
        #expect(result.status == 0)
        #expect(try ExampleWorkspace.files(workspace) == before)
    }

    @Test("run --dry-run into an existing store reads it and leaves it unchanged")
    func existingStore() async throws {
        let workspace = try ExampleWorkspace.make()
        #expect(try await workspace.rmap(["run", "mappings/crm.yml", "mappings/work.yml", "--quiet"]).status == 0)
        let bytes = workspace.bytes("rmap.sqlite")
        let result = try await workspace.rmap(["run", "mappings/crm.yml", "mappings/work.yml", "--dry-run", "--quiet"])
        #expect(result.stdout.hasSuffix("dry run: nothing was written\n"), "\(result.stdout)")
        #expect(result.status == 0)
        #expect(workspace.bytes("rmap.sqlite") == bytes)
    }

    @Test("push --dry-run without a store creates none", arguments: [[], ["--store", "json:graph.json"]])
    func push(store: [String]) async throws {
        let workspace = try ExampleWorkspace.make()
        let before = try ExampleWorkspace.files(workspace)
        let result = try await workspace.rmap(["push", "mappings/crm.yml", "mappings/work.yml", "--dry-run"] + store)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: no store at "), "\(result.stderr)")
        #expect(result.status == 1)
        #expect(try ExampleWorkspace.files(workspace) == before)
    }
}
