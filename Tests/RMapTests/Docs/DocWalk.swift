import Foundation
import Testing

/// Follows a page's ``DocTranscript`` in a fresh directory holding copies of the
/// repository's `mappings/`, `samples/` and `examples/`, as a user in a checkout
/// would, and records each step whose output differs from the page. Following a
/// page must leave the example loadable: `rmap validate mappings/*.yml` passes
/// at its end.
///
/// Commands run in `/bin/sh` with `rmap` (the built binary, `RMAP_BINARY`
/// honoured) and `rmap-doc-examples` first on `PATH`; `scripts/rmap` is
/// `rmap`. The Rails app's address, which changes with every start, is written
/// `http://127.0.0.1:PORT` on the page: commands get the real one; `RAILS_URL`
/// is set to it. Output and page are compared after ``normalized(_:)``, which
/// writes what changes from run to run (times, rates, ports) one way.
struct DocWalk {
    /// The page, relative to the repository.
    var page: String

    /// A step whose output is not what the page shows.
    struct Mismatch: CustomStringConvertible {
        var location: String
        var what: String
        var expected: String
        var actual: String
        var description: String { "\(location): \(what)\n--- the page shows:\n\(expected)--- it prints:\n\(actual)" }
    }

    /// Runs every step of the page; the steps that printed something else.
    ///
    /// - Parameters:
    ///   - rails: the Rails app, for pages whose commands use it.
    ///   - environment: variables the page's commands and examples read (e.g. `DATABASE_URL`).
    func mismatches(rails: URL? = nil, environment: [String: String] = [:]) async throws -> [Mismatch] {
        let root = TestServers.repositoryRoot
        let markdown = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        let workspace = try TemporaryDirectory()
        for folder in ["mappings", "samples", "examples"] {
            try FileManager.default.copyItem(
                at: root.appendingPathComponent(folder), to: workspace.url.appendingPathComponent(folder))
        }
        let shell = try Shell(workspace: workspace, rails: rails, environment: environment)
        let transcript = DocTranscript(markdown: markdown)
        var found = transcript.unmarked.map { line in
            Mismatch(
                location: "\(page):\(line)",
                what: "commands neither run (```console) nor marked <!-- not run: REASON -->",
                expected: "", actual: "")
        }
        for step in transcript.steps {
            switch step {
            case .file(let name, let text):
                try workspace.write(name, text)
            case .command(let command, let output, let line):
                let actual = try await shell.run(command)
                if Self.normalized(actual) != Self.normalized(output) {
                    found.append(
                        Mismatch(location: "\(page):\(line)", what: "$ \(command)", expected: output, actual: actual))
                }
            case .example(let name, let output, let line):
                let actual = try await shell.run("rmap-doc-examples \(name)")
                if Self.normalized(actual) != Self.normalized(output) {
                    found.append(
                        Mismatch(location: "\(page):\(line)", what: "example \(name)", expected: output, actual: actual)
                    )
                }
            }
        }
        let validation = try await shell.run("rmap validate mappings/*.yml")
        if !validation.hasPrefix("ok: ") {
            found.append(
                Mismatch(
                    location: "\(page): at its end", what: "$ rmap validate mappings/*.yml (the example still loads)",
                    expected: "ok: ...\n", actual: validation))
        }
        return found
    }

    /// `text` with what differs between runs written one way: durations (`in 0.01s`) as `0.00s`,
    /// rates (`1,541 records/s`) as `N records/s`, `ETA 3s` as `ETA Ns`, and any port on 127.0.0.1 as
    /// `127.0.0.1:PORT`.
    static func normalized(_ text: String) -> String {
        text.replacing(/\b\d+\.\d\ds\b/, with: "0.00s")
            .replacing(/\b\d[\d,]* records\/s\b/, with: "N records/s")
            .replacing(/ETA \d+s/, with: "ETA Ns")
            .replacing(/127\.0\.0\.1:\d+/, with: "127.0.0.1:PORT")
    }
}

/// Runs a page's commands: `rmap` and `rmap-doc-examples` on the path, the Rails address filled in.
private struct Shell {
    let workspace: TemporaryDirectory
    let bin: TemporaryDirectory
    let rails: URL?
    let environment: [String: String]
    static let railsPlaceholder = "http://127.0.0.1:PORT"

    init(workspace: TemporaryDirectory, rails: URL?, environment: [String: String]) throws {
        self.workspace = workspace
        self.rails = rails
        self.environment = environment
        bin = try TemporaryDirectory()
        let rmap = try CLIRunner.binary()
        let examples = try DocExamplesBinary.locate()
        try FileManager.default.createSymbolicLink(at: bin.url.appendingPathComponent("rmap"), withDestinationURL: rmap)
        try FileManager.default.createSymbolicLink(
            at: bin.url.appendingPathComponent("rmap-doc-examples"), withDestinationURL: examples)
    }

    /// What `command` printed on stdout and stderr together, as the page shows it.
    func run(_ command: String) async throws -> String {
        let site = rails.map { $0.absoluteString.trimmingCharacters(in: ["/"]) }
        var line = command.replacingOccurrences(of: "scripts/rmap ", with: "rmap ")
        if let site { line = line.replacingOccurrences(of: Self.railsPlaceholder, with: site) }
        let path = bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        var variables: [String: String?] = ["PATH": path, "RAILS_URL": site, "RMAP_BINARY": nil]
        for (name, value) in environment { variables[name] = value }
        let result = try await CLIRunner.run(
            ["-c", "{ \(line) ; } 2>&1"], executable: "/bin/sh", in: workspace.url, environment: variables)
        guard let site else { return result.stdout }
        return result.stdout.replacingOccurrences(of: site, with: Self.railsPlaceholder)
    }
}

/// The `rmap-doc-examples` program: the docs' Swift examples, built beside the tests.
enum DocExamplesBinary {
    /// Its path, beside the test bundle in `.build/<triple>/debug/`.
    static func locate() throws -> URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("rmap-doc-examples"),
            TestServers.repositoryRoot.appendingPathComponent(".build/debug/rmap-doc-examples"),
        ].compactMap { $0 }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no rmap-doc-examples at \(candidates.map(\.path)); run `swift build` first")
    }
}
