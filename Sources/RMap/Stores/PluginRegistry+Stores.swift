extension PluginRegistry {
    /// Registers the stores of the `RMap` module: `memory` (no options) and `json` (`path`, and
    /// `busy_timeout`: seconds a write waits for another process's write, default 5).
    ///
    /// ```swift
    /// let registry = PluginRegistry()
    /// registry.registerBuiltinStores()
    /// ```
    public func registerBuiltinStores() {
        register(store: "memory", options: []) { _ in MemoryStore() }
        register(store: "json", options: ["path", "busy_timeout"]) { config in
            guard let path = config["path"]?.scalar?.text else {
                throw PluginError.invalidOptions("the json store needs a 'path'", at: config.mark)
            }
            return try JSONStore(
                path: config.resolvePath(path),
                busyTimeout: try config.seconds("busy_timeout", allowingZero: true) ?? .seconds(5))
        }
    }
}
