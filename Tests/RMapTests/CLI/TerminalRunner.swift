import Foundation

/// Runs the `rmap` binary with a pseudo-terminal as its stdin, stdout and stderr,
/// through util-linux's `script`, as a person at a terminal would.
enum TerminalRunner {
    /// Runs `rmap arguments...` on a terminal of type `term`; stdout holds everything the terminal showed.
    ///
    /// - Parameters:
    ///   - environment: variables added to (or, with `nil`, removed from) the environment, after `TERM`.
    static func run(
        _ arguments: [String], in directory: URL, term: String = "xterm-256color",
        environment: [String: String?] = [:]
    ) async throws -> CLIResult {
        let command = try ([CLIRunner.binary().path] + arguments).map(quoted).joined(separator: " ")
        var variables: [String: String?] = ["TERM": term, "NO_COLOR": nil]
        variables.merge(environment) { $1 }
        return try await CLIRunner.run(
            ["-qfec", command, "/dev/null"], executable: "/usr/bin/script", in: directory, environment: variables)
    }

    private static func quoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
