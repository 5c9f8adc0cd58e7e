import Foundation
import Testing

/// `cannot read the mapping file` says why.
@Suite("rmap: an unreadable mapping file, and why")
struct UnreadableMappingTests {
    @Test(
        "a missing file and a directory", arguments: [("nowhere.yml", "no such file"), ("mappings", "is a directory")])
    func missingOrDirectory(path: String, reason: String) async throws {
        let workspace = try ExampleWorkspace.make()
        let result = try await workspace.rmap(["validate", path])
        #expect(result.stdout == "")
        #expect(result.stderr == "\(path):1:1: cannot read the mapping file: \(reason)\n")
        #expect(result.status == 2)
    }

    @Test("a file the user may not read")
    func permissionDenied() async throws {
        let workspace = try ExampleWorkspace.make()
        try workspace.write("secret.yml", "rmap: 1\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: workspace.path("secret.yml"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.url.path)
        // root reads every file: run as nobody then (setpriv is util-linux's, in every Debian).
        let rmap = try CLIRunner.binary().path
        let asUser: [String] =
            getuid() == 0 ? ["--reuid=nobody", "--regid=nogroup", "--clear-groups", rmap] : []
        let result = try await CLIRunner.run(
            asUser + ["validate", "secret.yml"], executable: getuid() == 0 ? "/usr/bin/setpriv" : nil, in: workspace.url
        )
        #expect(result.stdout == "")
        #expect(result.stderr == "secret.yml:1:1: cannot read the mapping file: permission denied\n")
        #expect(result.status == 2)
    }

    @Test("every unreadable file is reported, in one pass")
    func several() async throws {
        let workspace = try ExampleWorkspace.make()
        let result = try await workspace.rmap(["validate", "a.yml", "mappings", "mappings/crm.yml"])
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                a.yml:1:1: cannot read the mapping file: no such file
                mappings:1:1: cannot read the mapping file: is a directory

                """)
        #expect(result.status == 2)
    }
}
