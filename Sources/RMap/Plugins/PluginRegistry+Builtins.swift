extension PluginRegistry {
    /// A registry with every plugin of the `RMap` module: the `file`, `stdin`,
    /// `exec` and `singer` sources, the built-in transformers and the `exec` stage.
    /// Add `registerSQLite()` (the `sqlite`, `memory` and `json` stores, whose engine
    /// is SQLite), `registerHTTP()` and `registerPostgres()` from their modules for the others.
    ///
    /// ```swift
    /// let registry = PluginRegistry.standard()
    /// registry.registerSQLite()
    /// ```
    public static func standard() -> PluginRegistry {
        let registry = PluginRegistry()
        registry.register(source: "file", options: FileSource.options) { config, _ in FileSource(config: config) }
        registry.register(source: "stdin", options: StdinSource.options) { config, _ in StdinSource(config: config) }
        registry.register(source: "exec", options: ExecSource.options) { config, _ in try ExecSource(config: config) }
        registry.register(stage: "exec", options: ExecStage.options) { config, _ in try ExecStage(config: config) }
        registry.register(source: "singer", options: SingerSource.options) { config, _ in
            try SingerSource(config: config)
        }
        for (name, transformer) in BuiltinTransformers.all {
            registry.register(transformer: name, transformer)
        }
        return registry
    }
}
