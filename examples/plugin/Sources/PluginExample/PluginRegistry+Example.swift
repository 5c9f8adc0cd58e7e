import RMap

extension PluginRegistry {
    /// Registers the example's plugins: the `csv` source, the `initials` stage and the `slug` transformer.
    public func registerExample() {
        register(source: "csv", options: CSVSource.options) { config, _ in CSVSource(config: config) }
        register(stage: "initials", options: InitialsStage.options) { config, _ in try InitialsStage(config: config) }
        register(transformer: "slug", slugTransformer)
    }
}
