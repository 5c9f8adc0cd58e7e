extension PluginRegistry {
    /// Registers the stores of the `RMap` module: `memory` (no options) and `json` (`path`).
    ///
    /// ```swift
    /// let registry = PluginRegistry()
    /// registry.registerBuiltinStores()
    /// ```
    public func registerBuiltinStores() {
        register(store: "memory", options: []) { _ in MemoryStore() }
        register(store: "json", options: ["path"]) { config in
            guard let path = config["path"]?.scalar?.text else {
                throw PluginError.invalidOptions("the json store needs a 'path'", at: config.mark)
            }
            return try JSONStore(path: config.resolvePath(path))
        }
    }
}
