import Testing

/// `run`, `diff` and `push` up to the point where the pipeline takes over:
/// loading, `--store` resolution, `--only` and progress output.
@Suite("rmap run, diff and push")
struct PipelineCommandTests {
    @Test(
        "--store picks the store plugin; without it the files' store, else SQLite",
        arguments: [
            (["--store", "sqlite:data/x.sqlite"], "sqlite"), (["--store", "rmap.db"], "sqlite"),
            (["--store=postgres://me@localhost/crm?sslmode=require"], "postgres"),
            (["--store", "postgresql://localhost/crm"], "postgres"), (["--store", "json:out.json"], "json"),
            (["--store", "memory:"], "memory"), (["--store", "./odd:name.sqlite"], "sqlite"), ([], "sqlite"),
        ])
    func storeSelection(options: [String], plugin: String) throws {
        for command in ["run", "diff", "push"] {
            let result = try CLIRunner.run([command, "crm.yml"] + options + (command == "run" ? ["--quiet"] : []))
            #expect(result.stderr == "Error: the '\(plugin)' store plugin is not available yet\n", "\(command)")
            #expect(result.stdout == "")
            #expect(result.status == 1)
        }
    }

    @Test("the store of the mapping files is used when --store is absent")
    func fileStore() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "m.yml", "rmap: 1\nstore:\n  plugin: memory\nentities:\n  A:\n    attributes:\n      id: int\n")
        let result = try CLIRunner.run(["diff", "m.yml"], in: directory.url)
        #expect(result.stderr == "Error: the 'memory' store plugin is not available yet\n")
        #expect(result.status == 1)
    }

    @Test("an unknown --only entity is a usage error naming the closest entity")
    func onlyUnknown() throws {
        let result = try CLIRunner.run([
            "run", "crm.yml", "--quiet", "--only", "CRMPerson", "--only", "CRMProjet,CRMAdmin",
        ])
        #expect(result.stderr == "Error: unknown entity 'CRMProjet' in --only (did you mean 'CRMProject'?)\n")
        #expect(result.status == 2)
    }

    @Test("known --only entities, repeated or comma-separated, are accepted")
    func onlyKnown() throws {
        let result = try CLIRunner.run([
            "run", "crm.yml", "--quiet", "--only", "CRMPerson", "--only=CRMProject,CRMAdmin",
        ])
        #expect(result.stderr == "Error: the 'sqlite' store plugin is not available yet\n")
        #expect(result.status == 1)
    }

    @Test("mapping errors stop every command with exit 2", arguments: ["run", "diff", "push"])
    func mappingErrors(command: String) throws {
        let result = try CLIRunner.run([command, "misspelt.yml", "--store", "memory:"])
        #expect(
            result.stderr.contains(
                "misspelt.yml:14:11: unknown key 'forign_key' in connect (did you mean 'foreign_key'?)\n"))
        #expect(result.status == 2)
    }

    @Test("progress: plain lines on stderr when it is not a terminal, nothing with --quiet")
    func progressLines() throws {
        let plain = try CLIRunner.run(["run", "crm.yml", "--store", "memory:"])
        #expect(plain.stderr == "load: started\nload: done\nError: the 'memory' store plugin is not available yet\n")
        #expect(plain.stdout == "")
        let quiet = try CLIRunner.run(["run", "crm.yml", "--store", "memory:", "--quiet"])
        #expect(quiet.stderr == "Error: the 'memory' store plugin is not available yet\n")
    }

    @Test("progress: a status line redrawn in place on a terminal")
    func progressTerminal() throws {
        let binary = try CLIRunner.binary().path
        let result = try CLIRunner.run(
            ["-qec", "\(binary) run crm.yml --store memory:", "/dev/null"], executable: "/usr/bin/script")
        #expect(
            result.stdout
                == "\r\u{1B}[Kload...\r\u{1B}[Kload: done\r\nError: the 'memory' store plugin is not available yet\r\n")
    }
}
