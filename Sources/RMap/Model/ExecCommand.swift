import Foundation

/// A program an `exec` stage or transformer runs: its words (`[python3, enrich.py]`),
/// the variables added to its environment, the folder it runs in (the
/// declaring mapping file's) and how long it may run. The program is found as a shell
/// finds it (``ProgramPath``) and run directly: no shell reads the words.
public struct ExecCommand: Sendable, Hashable {
    /// The program and its arguments.
    public var words: [String]
    /// Variables added to rmap's environment for the program.
    public var environment: [String: String]
    /// The folder the program runs in; a relative program path resolves against it.
    public var directory: String
    /// How long the program may run before it is stopped and the run fails; `nil` (the
    /// default): no limit.
    public var timeout: Duration?

    /// Creates a command.
    public init(
        words: [String], environment: [String: String] = [:], directory: String, timeout: Duration? = nil
    ) {
        self.words = words
        self.environment = environment
        self.directory = directory
        self.timeout = timeout
    }

    /// The command of a block's `command:` (a list of words, or one word), `env:` and
    /// `timeout:` keys.
    ///
    /// - Throws: ``PluginError`` naming the block when `command:` is missing or empty, or at
    ///   `timeout:` when it is not a number of seconds greater than 0.
    public init(config: PluginConfig, what: String) throws(PluginError) {
        let node = config["command"]
        let words = node?.sequence?.compactMap { $0.scalar?.text } ?? node?.scalar.map { [$0.text] } ?? []
        guard !words.isEmpty else {
            throw PluginError.invalidOptions("the exec \(what) needs 'command: [program, args...]'", at: config.mark)
        }
        var environment: [String: String] = [:]
        for pair in config["env"]?.mapping ?? [] {
            guard let name = pair.key.scalar?.text, let value = pair.value.scalar?.text else { continue }
            environment[name] = value
        }
        self.init(
            words: words, environment: environment, directory: config.baseDirectory,
            timeout: try config.seconds("timeout", allowingZero: false))
    }

    /// `exec python3 enrich.py`: how messages name the program.
    public var display: String { "exec " + words.joined(separator: " ") }
}
