import Testing

/// `rmap help` for every command, `help` included: each page says what that command's exit statuses mean.
@Suite("rmap help: each command's own page")
struct HelpPagesTests {
    @Test(
        "rmap help help prints help's own help on stdout, exit 0", arguments: [["help", "help"], ["help", "--help"]])
    func helpOfHelp(arguments: [String]) async throws {
        let result = try await CLIRunner.run(arguments)
        #expect(
            result.stdout == """
                OVERVIEW: Show help for a subcommand.

                USAGE: rmap help [<subcommand>]

                ARGUMENTS:
                  <subcommand>            The subcommand to show help for; without one, the list of subcommands.

                OPTIONS:
                  -h, --help              Show help information.

                EXIT STATUS:
                  0  the help was printed
                  2  usage error (e.g. an unknown subcommand)

                """)
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test("every subcommand that rmap help lists ends its page with its exit statuses, 0 and 2 among them")
    func everyPageHasExitStatuses() async throws {
        let list = try await CLIRunner.run(["help"])
        let section = try #require(list.stdout.components(separatedBy: "SUBCOMMANDS:\n").last)
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("  See") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(names.count >= 9 && names.contains("status") && names.contains("help"), "\(names)")
        for name in names {
            let page = try await CLIRunner.run(["help", name]).stdout
            let statuses = try #require(page.components(separatedBy: "\n\nEXIT STATUS:\n").dropFirst().last, "\(name)")
            let codes = statuses.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).prefix(1) }
            #expect(codes.contains("0") && codes.contains("2"), "rmap help \(name): \(statuses)")
            #expect(statuses.hasSuffix("\n") && !statuses.contains("\n\n"), "rmap help \(name): not the last section")
        }
    }

    @Test(
        "diff, push and run each list their own exit statuses",
        arguments: [
            (
                "diff",
                """
                EXIT STATUS:
                  0  the plan was printed (also when it is empty)
                  1  the store could not be read (e.g. no store yet: run 'rmap run' first)
                  2  usage or mapping error

                """
            ),
            (
                "push",
                """
                EXIT STATUS:
                  0  nothing is left pending (with --dry-run: the plan was printed)
                  1  some change is still pending, or the push could not start
                  2  usage or mapping error

                """
            ),
            (
                "run",
                """
                EXIT STATUS:
                  0  success
                  1  the run failed; nothing was written
                  2  usage or mapping error
                  3  finished with rejected records or dangling references (without --strict)

                """
            ),
        ])
    func exitStatuses(command: String, statuses: String) async throws {
        let result = try await CLIRunner.run(["help", command])
        #expect(result.stdout.hasSuffix("\n\n" + statuses), "\(result.stdout)")
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }
}
