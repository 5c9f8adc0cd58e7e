import Synchronization

/// The plugins a run can use, by name: sources, stores, transformers and stages.
///
/// The mapping files name sources and stores (`plugin: http`); library users
/// register their own before loading.
///
/// ```swift
/// let registry = PluginRegistry.standard()
/// registry.register(transformer: "reverse", ClosureTransformer { value in
///     if case .string(let text) = value { return .string(String(text.reversed())) }
///     return value
/// })
/// ```
public final class PluginRegistry: Sendable {
    /// Makes a source from its configuration.
    public typealias SourceFactory = @Sendable (PluginConfig, MappingModel) throws -> any Source
    /// Makes a store from its configuration.
    public typealias StoreFactory = @Sendable (PluginConfig) throws -> any Store

    private struct Entry<Factory> {
        var options: [String]
        var factory: Factory
    }

    private struct Contents {
        var sources: [String: Entry<SourceFactory>] = [:]
        var stores: [String: Entry<StoreFactory>] = [:]
        var transformers: [String: any Transformer] = [:]
        var stages: [any Stage] = []
    }

    private let contents = Mutex(Contents())

    /// Creates an empty registry.
    public init() {}

    /// Registers a source plugin.
    ///
    /// - Parameters:
    ///   - name: the name mapping files use in `plugin:`.
    ///   - options: the option keys the plugin reads (others are mapping errors).
    ///   - factory: makes the source from a `source:` block.
    public func register(source name: String, options: [String], factory: @escaping SourceFactory) {
        contents.withLock { $0.sources[name] = Entry(options: options, factory: factory) }
    }

    /// Registers a store plugin.
    public func register(store name: String, options: [String], factory: @escaping StoreFactory) {
        contents.withLock { $0.stores[name] = Entry(options: options, factory: factory) }
    }

    /// Registers a value transformer.
    public func register(transformer name: String, _ transformer: any Transformer) {
        contents.withLock { $0.transformers[name] = transformer }
    }

    /// Registers a stage that runs after connect.
    public func register(stage: any Stage) {
        contents.withLock { $0.stages.append(stage) }
    }

    /// The names and option keys the loader validates mapping files against.
    public var catalog: PluginCatalog {
        contents.withLock { contents in
            PluginCatalog(
                sources: contents.sources.mapValues(\.options), stores: contents.stores.mapValues(\.options),
                transformers: Array(contents.transformers.keys).sorted())
        }
    }

    /// Makes the source a `source:` block names.
    public func makeSource(_ config: PluginConfig, model: MappingModel) throws -> any Source {
        guard let entry = contents.withLock({ $0.sources[config.plugin] }) else {
            throw PluginError(message: "\(config.mark): unknown source plugin '\(config.plugin)'")
        }
        return try entry.factory(config, model)
    }

    /// Makes the store a `store:` block (or `--store`) names.
    public func makeStore(_ config: PluginConfig) throws -> any Store {
        guard let entry = contents.withLock({ $0.stores[config.plugin] }) else {
            throw PluginError(message: "unknown store plugin '\(config.plugin)'")
        }
        return try entry.factory(config)
    }

    /// The transformer named `name`.
    public func transformer(_ name: String) -> (any Transformer)? {
        contents.withLock { $0.transformers[name] }
    }

    /// Every registered transformer by name.
    public var transformers: [String: any Transformer] { contents.withLock { $0.transformers } }

    /// The registered stages, in order.
    public var stages: [any Stage] { contents.withLock { $0.stages } }
}

/// A plugin that is not registered or could not be made.
public struct PluginError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
