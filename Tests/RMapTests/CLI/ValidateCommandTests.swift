import Testing

@Suite("rmap validate")
struct ValidateCommandTests {
    @Test("valid files: a one-line summary on stdout, exit 0")
    func valid() async throws {
        let one = try await CLIRunner.run(["validate", "crm.yml"])
        #expect(one.stdout == "ok: 3 entities in 1 file\n")
        #expect(one.stderr == "")
        #expect(one.status == 0)
        let two = try await CLIRunner.run(["validate", "crm.yml", "tasks.yml"])
        #expect(two.stdout == "ok: 4 entities in 2 files\n")
        #expect(two.status == 0)
    }

    @Test("entities may reference entities of another file only when both are given")
    func crossFile() async throws {
        let result = try await CLIRunner.run(["validate", "tasks.yml"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "tasks.yml:10:17: relationship 'owner' of 'Task' points to unknown entity 'CRMPerson'"))
    }

    @Test("a misspelt key: every issue on stderr as file:line:col, exit 2")
    func misspelt() async throws {
        let result = try await CLIRunner.run(["validate", "misspelt.yml"])
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                misspelt.yml:14:11: unknown key 'forign_key' in connect (did you mean 'foreign_key'?)

                """)
        #expect(result.status == 2)
    }

    @Test("--json on valid files")
    func jsonValid() async throws {
        let result = try await CLIRunner.run(["validate", "--json", "crm.yml", "tasks.yml"])
        #expect(result.stdout == #"{"valid":true,"files":["crm.yml","tasks.yml"],"entities":4,"errors":[]}"# + "\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test("--json on invalid files lists every error, exit 2")
    func jsonInvalid() async throws {
        let result = try await CLIRunner.run(["validate", "misspelt.yml", "--json"])
        #expect(
            result.stdout
                == #"{"valid":false,"files":["misspelt.yml"],"entities":0,"errors":["#
                + #"{"file":"misspelt.yml","line":14,"column":11,"message":"unknown key 'forign_key' in connect (did you mean 'foreign_key'?)"}]}"#
                + "\n")
        #expect(result.stderr == "")
        #expect(result.status == 2)
    }

    @Test("a missing file is a mapping error")
    func missingFile() async throws {
        let result = try await CLIRunner.run(["validate", "crm.yml", "nowhere.yml"])
        #expect(result.stderr == "nowhere.yml:1:1: cannot read the mapping file: no such file\n")
        #expect(result.status == 2)
    }

    @Test("an unset environment variable is a mapping error; a set one validates")
    func environment() async throws {
        let unset = try await CLIRunner.run(["validate", "secret.yml"], environment: ["RMAP_TEST_TOKEN": nil])
        #expect(
            unset.stderr == "secret.yml:6:20: environment variable 'RMAP_TEST_TOKEN' is not set (and has no default)\n")
        #expect(unset.status == 2)
        let set = try await CLIRunner.run(["validate", "secret.yml"], environment: ["RMAP_TEST_TOKEN": "s3cr3t"])
        #expect(set.stdout == "ok: 1 entity in 1 file\n")
        #expect(set.status == 0)
    }

    @Test("an unknown plugin option is reported against the registered plugins")
    func pluginOptions() async throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "bad.yml",
            "rmap: 1\nsource:\n  plugin: http\n  sit: https://x\nentities:\n  A:\n    attributes:\n      id: int\n")
        let result = try await CLIRunner.run(["validate", "bad.yml"], in: directory.url)
        #expect(result.stderr == "bad.yml:4:3: unknown key 'sit' in source (plugin 'http') (did you mean 'site'?)\n")
        #expect(result.status == 2)
    }
}
