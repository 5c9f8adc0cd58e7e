/// The plugin names a mapping file may use, with the option keys each accepts:
/// what the loader validates `source:`, `store:` and `transform:` against.
public struct PluginCatalog: Sendable {
    /// Source plugins by name, with their option keys.
    public var sources: [String: [String]]
    /// Store plugins by name, with their option keys.
    public var stores: [String: [String]]
    /// Transformer names.
    public var transformers: [String]

    /// Creates a catalog.
    public init(sources: [String: [String]] = [:], stores: [String: [String]] = [:], transformers: [String] = []) {
        self.sources = sources
        self.stores = stores
        self.transformers = transformers
    }
}
