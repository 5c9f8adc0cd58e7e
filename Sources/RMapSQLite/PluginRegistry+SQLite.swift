public import RMap

extension PluginRegistry {
    /// Registers the `sqlite` store, with option `path` (default `rmap.sqlite`,
    /// relative to the mapping file that names it; `:memory:` for a private in-memory database).
    ///
    /// ```swift
    /// let registry = PluginRegistry()
    /// registry.registerSQLite()
    /// ```
    public func registerSQLite() {
        register(store: "sqlite", options: ["path"]) { config in
            let path = config["path"]?.scalar?.text ?? "rmap.sqlite"
            return try SQLiteStore(path: path == ":memory:" ? path : config.resolvePath(path))
        }
    }
}
