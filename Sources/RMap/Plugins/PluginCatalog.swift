/// The plugin names a mapping file may use, with the option keys each accepts:
/// what the loader validates `source:`, `store:`, `stages:` and `transform:` against.
public struct PluginCatalog: Sendable {
    /// Source plugins by name, with their option keys.
    public var sources: [String: [String]]
    /// Store plugins by name, with their option keys.
    public var stores: [String: [String]]
    /// Transformer names.
    public var transformers: [String]
    /// Stage plugins by name, with their option keys.
    public var stages: [String: [String]]

    /// Creates a catalog.
    public init(
        sources: [String: [String]] = [:], stores: [String: [String]] = [:], transformers: [String] = [],
        stages: [String: [String]] = [:]
    ) {
        self.sources = sources
        self.stores = stores
        self.transformers = transformers
        self.stages = stages
    }
}
