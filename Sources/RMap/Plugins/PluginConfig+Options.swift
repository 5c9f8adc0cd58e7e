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
