import Testing

/// Paths in progress and messages as the user wrote them, normalised: never `mappings/../samples/...`.
@Suite("rmap: paths as the user wrote them, normalised")
struct DisplayedPathsTests {
    @Test(
        "a source path relative to its mapping file shows relative to the current directory",
        arguments: [
            ["mappings/crm.yml", "mappings/work.yml"], ["./mappings/crm.yml", "mappings/../mappings/work.yml"],
        ])
    func progress(mappings: [String]) async throws {
        let workspace = try ExampleWorkspace.make()
        let result = try await workspace.rmap(["run", "--store", "memory:", "--jobs", "1"] + mappings)
        #expect(
            result.fetchedLines == [
                "fetched CRMPerson: 12 records from samples/people.json ",
                "fetched CRMProject: 15 records and 40 nested CRMTask from samples/projects.json ",
            ])
        #expect(result.stdout.hasPrefix("entity "), "\(result.stdout)")
        #expect(result.status == 0)
    }

    @Test("a missing payload file is named by its normalised path")
    func missingPayload() async throws {
        let workspace = try ExampleWorkspace.make()
        try workspace.write(
            "mappings/notes.yml",
            "rmap: 1\nsource: {plugin: file, path: ./../samples/./notes.json}\nentities:\n  Note: {attributes: {id: int}}\n"
        )
        let result = try await workspace.rmap(["run", "./mappings/notes.yml", "--store", "memory:", "--quiet"])
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: samples/notes.json: no such file (entity Note)\n")
        #expect(result.status == 1)
    }

    @Test("mapping errors name the file as written, normalised")
    func mappingErrorMark() async throws {
        let workspace = try ExampleWorkspace.make()
        try workspace.write("mappings/bad.yml", "rmap: 1\nentities:\n  Note: {attributes: {id: int, n: strng}}\n")
        let result = try await workspace.rmap(["validate", "./mappings/../mappings/bad.yml"])
        #expect(
            result.stderr == "mappings/bad.yml:3:35: unknown type 'strng' for attribute 'n' (did you mean 'string'?)\n")
        #expect(result.stdout == "")
        #expect(result.status == 2)
    }
}
