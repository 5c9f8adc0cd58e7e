import Testing

@Suite("rmap validate --format github")
struct ValidateGitHubFormatTests {
    @Test("each problem is a GitHub Actions ::error line on stdout, exit 2")
    func problems() async throws {
        let result = try await CLIRunner.run(["validate", "--format", "github", "misspelt.yml"])
        #expect(
            result.stdout
                == "::error file=misspelt.yml,line=14,col=11::unknown key 'forign_key' in connect (did you mean 'foreign_key'?)\n"
        )
        #expect(result.stderr == "")
        #expect(result.status == 2)
    }

    @Test("valid files print the usual summary, exit 0")
    func valid() async throws {
        let result = try await CLIRunner.run(["validate", "--format=github", "crm.yml", "tasks.yml"])
        #expect(result.stdout == "ok: 4 entities in 2 files\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test("commas and colons in a file name, and percent signs, are escaped as the runner expects")
    func escaping() async throws {
        let workspace = try RunWorkspace(["a,b:c.yml": "rmap: 1\nentities:\n  Person: { attributes: { id: 'in%t' } }\n"]
        )
        let result = try await workspace.rmap(["validate", "--format", "github", "a,b:c.yml"])
        #expect(result.stdout.hasPrefix("::error file=a%2Cb%3Ac.yml,line=3,col="))
        #expect(result.stdout.contains("in%25t"))
        #expect(result.status == 2)
    }

    @Test("an unknown format is a usage error naming the choices")
    func unknownFormat() async throws {
        let result = try await CLIRunner.run(["validate", "--format", "gihtub", "crm.yml"])
        #expect(
            result.stderr.hasPrefix(
                "Error: the value 'gihtub' is invalid for '--format <format>': expected one of text, json, github (did you mean 'github'?)\n"
            ))
        #expect(result.status == 2)
    }
}
