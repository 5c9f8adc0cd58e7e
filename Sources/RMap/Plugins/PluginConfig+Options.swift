extension PluginConfig {
    /// Creates a configuration from plain string options, as a library caller
    /// names a store or source without writing YAML.
    ///
    /// ```swift
    /// let store = PluginConfig(plugin: "sqlite", options: ["path": "crm.sqlite"])
    /// let result = try await Pipeline(model: model, registry: registry).run(RunOptions(store: store))
    /// ```
    ///
    /// - Parameters:
    ///   - plugin: the registered plugin name, e.g. `sqlite`, `json`, `memory`.
    ///   - options: the plugin's option keys and their values, in order.
    ///   - baseDirectory: the folder relative paths resolve against (the working directory when empty).
    public init(plugin: String, options: KeyValuePairs<String, String> = [:], baseDirectory: String = "") {
        let mark = Mark(file: "<\(plugin)>", line: 1, column: 1)
        let pairs = options.map { key, value in
            YAMLPair(
                key: .scalar(YAMLScalar(text: key, style: .plain, mark: mark)),
                value: .scalar(YAMLScalar(text: value, style: .doubleQuoted, mark: mark)))
        }
        self.init(plugin: plugin, options: .mapping(pairs, mark), baseDirectory: baseDirectory, mark: mark)
    }
}

extension PluginConfig {
    /// A duration option given in seconds (`busy_timeout: 5`, `timeout: 0.5`); `nil` when it is
    /// absent or null.
    ///
    /// - Parameter allowingZero: whether 0 is a valid value (a busy timeout of 0 never waits; a
    ///   program's timeout of 0 would stop it at once, so it is not).
    /// - Throws: ``PluginError`` at the value's `file:line:col` when it is not such a number.
    public func seconds(_ key: String, allowingZero: Bool) throws(PluginError) -> Duration? {
        guard let node = self[key], node.scalar?.isNull != true else { return nil }
        guard let seconds = node.scalar?.double, seconds.isFinite, allowingZero ? seconds >= 0 : seconds > 0 else {
            let range = allowingZero ? "0 or more" : "greater than 0"
            throw PluginError.invalidOptions(
                "'\(key)' must be a number of seconds (\(range)), found '\(node.scalar?.text ?? node.kindName)'",
                at: node.mark)
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
