import Foundation

/// A program a source block runs: `command: [program, args...]` (or one word) and
/// `env: {NAME: value}`, added to rmap's own environment, run in the mapping file's folder,
/// stopped after `timeout:` seconds when given (none by default: a tap may run for hours).
struct ProgramCommand: Sendable {
    /// The program and its arguments.
    let words: [String]
    /// The variables `env:` adds.
    let environment: [String: String]
    /// The folder the program runs in: the mapping file's.
    let directory: String
    /// How long the program may run before it is stopped and the run fails; `nil`: no limit.
    let timeout: Duration?

    /// Reads `command:`, `env:` and `timeout:` of a `source:` block.
    ///
    /// - Throws: ``PluginError`` naming the block when `command:` is missing or empty, or at
    ///   `timeout:` when it is not a number of seconds greater than 0.
    init(config: PluginConfig) throws(PluginError) {
        let node = config["command"]
        words = node?.sequence?.compactMap { $0.scalar?.text } ?? node?.scalar.map { [$0.text] } ?? []
        guard !words.isEmpty else {
            throw PluginError.invalidOptions(
                "the \(config.plugin) source needs 'command: [program, args...]'", at: config.mark)
        }
        var environment: [String: String] = [:]
        for pair in config["env"]?.mapping ?? [] {
            guard let name = pair.key.scalar?.text, let value = pair.value.scalar?.text else { continue }
            environment[name] = value
        }
        self.environment = environment
        directory = config.baseDirectory
        timeout = try config.seconds("timeout", allowingZero: false)
    }

    /// Runs the program (with `arguments` in place of the command's words when given, e.g. with
    /// options added) to its end, with no standard input, handing each line of its output and
    /// the line's 1-based number to `body`; the program is stopped when `body` throws.
    ///
    /// - Parameters:
    ///   - origin: what errors name (the command, secrets redacted).
    ///   - redact: hides secrets in the stderr an error shows.
    /// - Throws: ``FetchError`` when the program cannot start, exits with a non-zero status
    ///   (with the end of its stderr) or runs past its timeout; else what `body` threw.
    func run(
        _ arguments: [String]? = nil, origin: String, redact: (String) -> String,
        eachLine body: ([UInt8], Int) async throws -> Void
    ) async throws {
        let program = try ChildProgram(
            arguments ?? words, adding: environment, directory: directory, withInput: false, timeout: timeout
        ) { FetchError(origin: origin, message: $0) }
        do {
            try await LineReader.forEachLine(of: program.output, body)
        } catch {
            program.terminate()
            throw error
        }
        if let problem = await program.exitProblem(redact: redact) {
            throw FetchError(origin: origin, message: problem)
        }
    }
}
