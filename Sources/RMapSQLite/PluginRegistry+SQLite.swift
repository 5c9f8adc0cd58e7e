public import RMap

extension PluginRegistry {
    /// Registers the `sqlite` store, with options `path` (default `rmap.sqlite`,
    /// relative to the mapping file that names it; `:memory:` for a private in-memory database)
    /// and `busy_timeout` (seconds a write waits for another process's lock, default 5).
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
    }
}
