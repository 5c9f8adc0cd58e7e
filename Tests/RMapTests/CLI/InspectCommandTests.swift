import Testing

@Suite("rmap inspect")
struct InspectCommandTests {
    @Test(
        "every format prints the expected document on stdout",
        arguments: [
            ([String](), "crm.txt"), (["--format", "text"], "crm.txt"), (["--format", "json"], "crm.json"),
            (["--format=mermaid"], "crm.mmd"), (["--format", "dot"], "crm.dot"),
        ])
    func formats(options: [String], expected: String) async throws {
        let result = try await CLIRunner.run(["inspect", "crm.yml"] + options)
        #expect(result.stdout == (try CLIRunner.fixture("expected/\(expected)")))
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test(
        "values read from the environment never appear, in any format", arguments: ["text", "json", "mermaid", "dot"])
    func redaction(format: String) async throws {
        let result = try await CLIRunner.run(
            ["inspect", "secret.yml", "--format", format], environment: ["RMAP_TEST_TOKEN": "s3cr3t-t0ken"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("s3cr3t-t0ken"))
        if format == "text" {
            #expect(
                result.stdout.contains(
                    "  source: http {site: https://api.example.com, headers: {Authorization: Bearer ***}}\n"))
        }
        if format == "json" {
            #expect(result.stdout.contains(#""headers":{"Authorization":"Bearer ***"}"#))
        }
    }

    @Test("mapping errors: issues on stderr, nothing on stdout, exit 2")
    func invalid() async throws {
        let result = try await CLIRunner.run(["inspect", "misspelt.yml", "--format", "mermaid"])
        #expect(result.stdout == "")
        #expect(
            result.stderr.contains(
                "misspelt.yml:14:11: unknown key 'forign_key' in connect (did you mean 'foreign_key'?)\n"))
        #expect(result.status == 2)
    }
}
