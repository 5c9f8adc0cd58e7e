import RMap
import RMapPostgres
import RMapSQLite

/// The plugins the command line offers: the library's standard plugins plus
/// the store and source modules the executable links.
enum RegistryFactory {
    /// Every built-in source, store and transformer.
    static func standard() -> PluginRegistry {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.register(source: "http", options: pendingHTTPOptions) { _, _ in throw unavailable("source", "http") }
        registry.registerPostgres()
        return registry
    }

    private static let pendingHTTPOptions = [
        "site", "suffix", "headers", "auth", "page_size", "paginate", "timeout", "retries", "concurrency", "params",
    ]

    private static func unavailable(_ kind: String, _ name: String) -> PluginError {
        PluginError(message: "the '\(name)' \(kind) plugin is not available yet")
    }
}
