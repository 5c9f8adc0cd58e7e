import Foundation
import Testing

@Suite("rmap diff and push without a store")
struct DiffMissingStoreTests {
    @Test("a store file that does not exist is an error, and none is created", arguments: ["diff", "push"])
    func missingStore(command: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLIRunner.run([command, "crm.yml", "--store", directory.url.path + "/absent.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: no store at \(directory.url.path)/absent.sqlite: run 'rmap run' first\n")
        #expect(!FileManager.default.fileExists(atPath: directory.url.path + "/absent.sqlite"))
    }
}
