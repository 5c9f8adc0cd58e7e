public import RMap

extension PluginRegistry {
    /// Registers the `postgres` store, with option `url` (a libpq URI or
    /// key/value string; `${VAR}` keeps a password out of the mapping file) and
    /// the TLS options `sslmode`, `sslrootcert`, `sslcert` and `sslkey`, passed
    /// to libpq (certificate paths are relative to the mapping file that names them).
    ///
    /// ```swift
    /// let registry = PluginRegistry.standard()
    /// registry.registerPostgres()
    /// ```
    public func registerPostgres() {
        register(store: "postgres", options: ["url", "sslmode", "sslrootcert", "sslcert", "sslkey"]) { config in
            guard let url = config["url"]?.scalar?.text, !url.isEmpty else {
                throw PluginError.invalidOptions(
                    "the postgres store needs a 'url', e.g. postgres://user@host/database", at: config.mark)
            }
            var settings: [String: String] = [:]
            settings["sslmode"] = config["sslmode"]?.scalar?.text
            for key in ["sslrootcert", "sslcert", "sslkey"] {
                if let path = config[key]?.scalar?.text { settings[key] = config.resolvePath(path) }
            }
            return try PostgresStore(url: url, settings: settings)
        }
    }
}
