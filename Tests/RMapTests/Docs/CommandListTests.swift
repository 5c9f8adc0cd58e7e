import Foundation
import Testing

/// The command list a user reads first (README.md's "Command line", docs/cli.md's
/// synopsis) is the one `rmap help` prints: every subcommand, every option.
@Suite("Docs: the command list")
struct CommandListTests {
    /// The first fenced block after `heading` in `page` (the whole page when `heading` is empty).
    static func firstBlock(of page: String, after heading: String = "") throws -> String {
        let text = try String(contentsOf: TestServers.repositoryRoot.appendingPathComponent(page), encoding: .utf8)
        let section = try #require(text.components(separatedBy: heading).dropFirst().first, "\(page): \(heading)")
        let body = try #require(section.components(separatedBy: "```\n").dropFirst().first, "\(page): no block")
        return body
    }

    @Test("README.md's command list is docs/cli.md's synopsis")
    func readmeMatchesReference() throws {
        let readme = try Self.firstBlock(of: "README.md", after: "## Command line\n")
        let reference = try Self.firstBlock(of: "docs/cli.md", after: "# rmap command line reference\n")
        #expect(readme == reference)
    }

    @Test("the synopsis has a line for every subcommand rmap help lists, naming each of its options")
    func synopsisNamesEveryOption() async throws {
        let synopsis = try Self.firstBlock(of: "docs/cli.md", after: "# rmap command line reference\n")
        let lines = synopsis.split(separator: "\n").map(String.init)
        let root = try await CLIRunner.run(["help"]).stdout
        let commands = try #require(root.components(separatedBy: "SUBCOMMANDS:\n").last).split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("  See") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 9, "\(commands)")
        for command in commands {
            let line = try #require(lines.first { $0.hasPrefix("rmap \(command) ") || $0 == "rmap \(command)" })
            let page = try await CLIRunner.run(["help", command]).stdout
            let options = try #require(page.components(separatedBy: "OPTIONS:\n").last)
                .components(separatedBy: "\n\n")[0].split(separator: "\n")
                .filter { $0.hasPrefix("  -") && !$0.contains("--help") }
            for option in options {
                // `  -o, --output <file>`: the synopsis may use either name.
                let names = option.split(separator: " ").prefix(2).map { $0.trimmingCharacters(in: [","]) }
                    .filter { $0.hasPrefix("-") }
                #expect(
                    names.contains { line.contains($0 + " ") || line.contains($0 + "]") }, "\(line) lacks \(option)")
            }
        }
        #expect(lines.contains { $0.contains("rmap --version") })
    }
}
