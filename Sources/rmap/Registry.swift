import RMap
import RMapHTTP
import RMapPostgres
import RMapSQLite

/// The plugins the command line offers: the library's standard plugins plus
/// the store and source modules the executable links.
enum RegistryFactory {
    /// Every built-in source, store and transformer.
    static func standard() -> PluginRegistry {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.registerPostgres()
        registry.registerHTTP()
        return registry
    }
}
