public import RMap

extension PluginRegistry {
    /// Registers the stores whose engine is SQLite: `sqlite`, with options `path` (default
    /// `rmap.sqlite`, relative to the mapping file that names it; `:memory:` for a private
    /// in-memory database) and `busy_timeout` (seconds a write waits for another process's lock,
    /// default 5); `memory` (no options, ``MemoryStore``); and `json` (`path`, and
    /// `busy_timeout`: seconds a write waits for another process's write, default 5; ``JSONStore``).
    ///
    /// ```swift
    /// let registry = PluginRegistry()
    /// registry.registerSQLite()
    /// ```
    public func registerSQLite() {
        register(store: "sqlite", options: ["path", "busy_timeout"]) { config in
            let path = config["path"]?.scalar?.text ?? "rmap.sqlite"
            return try SQLiteStore(
                path: path == ":memory:" ? path : config.resolvePath(path),
                busyTimeout: try config.seconds("busy_timeout", allowingZero: true) ?? .seconds(5))
        }
        register(store: "memory", options: []) { _ in try MemoryStore() }
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
