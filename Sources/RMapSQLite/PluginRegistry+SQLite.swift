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
                path: path == ":memory:" ? path : config.resolvePath(path), busyTimeout: try Self.busyTimeout(config))
        }
    }

    private static func busyTimeout(_ config: PluginConfig) throws(PluginError) -> Duration {
        guard let node = config["busy_timeout"], node.scalar?.isNull != true else { return .seconds(5) }
        guard let seconds = node.scalar?.double, seconds >= 0, seconds.isFinite else {
            throw PluginError.invalidOptions(
                "'busy_timeout' must be a number of seconds (0 or more), found '\(node.scalar?.text ?? node.kindName)'",
                at: node.mark)
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
