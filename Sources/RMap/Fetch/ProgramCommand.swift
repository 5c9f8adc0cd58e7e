import Foundation

/// A program a source block runs: `command: [program, args...]` (or one word) and
/// `env: {NAME: value}`, added to rmap's own environment.
struct ProgramCommand: Sendable {
    /// The program and its arguments.
    let words: [String]
    /// The variables `env:` adds.
    let environment: [String: String]

    /// Reads `command:` and `env:` of a `source:` block.
    ///
    /// - Throws: ``PluginError`` naming the block when `command:` is missing or empty.
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
    }

    /// The environment the program runs in: rmap's, with `env:` over it.
    var processEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(environment) { _, own in own }
    }
}
