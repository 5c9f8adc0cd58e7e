/// The plugins a run can use, by name: sources, stores, transformers and stages.
///
/// The mapping files name sources, stores and stages (`plugin: http`) and
/// transformers (`transform: trim`); library users register their own before
/// loading. Each plugin remembers the module that registered it (`RMap`,
/// `RMapSQLite`, or the caller's), which ``plugins`` and `rmap plugins` show.
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
    /// Makes a stage from a `stages:` item.
    public typealias StageFactory = @Sendable (PluginConfig, MappingModel) throws -> any Stage

    private struct Entry<Plugin> {
        var options: [String]
        var module: String
        var plugin: Plugin
    }

    private struct Contents {
        var sources: [String: Entry<SourceFactory>] = [:]
        var stores: [String: Entry<StoreFactory>] = [:]
        var transformers: [String: Entry<any Transformer>] = [:]
        var stageFactories: [String: Entry<StageFactory>] = [:]
        var stages: [Entry<any Stage>] = []
    }

    private let contents = Locked(Contents())

    /// Creates an empty registry.
    public init() {}

    /// Registers a source plugin.
    ///
    /// - Parameters:
    ///   - name: the name mapping files use in `plugin:`.
    ///   - options: the option keys the plugin reads (others are mapping errors).
    ///   - module: where the plugin comes from; by default the caller's module.
    ///   - factory: makes the source from a `source:` block.
    public func register(
        source name: String, options: [String], module: String = #fileID, factory: @escaping SourceFactory
    ) {
        contents.withLock { $0.sources[name] = Entry(options: options, module: Self.module(module), plugin: factory) }
    }

    /// Registers a store plugin.
    public func register(
        store name: String, options: [String], module: String = #fileID, factory: @escaping StoreFactory
    ) {
        contents.withLock { $0.stores[name] = Entry(options: options, module: Self.module(module), plugin: factory) }
    }

    /// Registers a value transformer.
    public func register(transformer name: String, _ transformer: any Transformer, module: String = #fileID) {
        contents.withLock {
            $0.transformers[name] = Entry(options: [], module: Self.module(module), plugin: transformer)
        }
    }

    /// Registers a stage plugin that mapping files name in `stages:` (`- { plugin: exec, command: [...] }`).
    ///
    /// - Parameters:
    ///   - name: the name a `stages:` item uses in `plugin:`.
    ///   - options: the option keys the plugin reads (others are mapping errors).
    ///   - module: where the plugin comes from; by default the caller's module.
    ///   - factory: makes the stage from a `stages:` item.
    public func register(
        stage name: String, options: [String], module: String = #fileID, factory: @escaping StageFactory
    ) {
        contents.withLock {
            $0.stageFactories[name] = Entry(options: options, module: Self.module(module), plugin: factory)
        }
    }

    /// Registers a stage that runs after connect in every run, before the stages mapping files name.
    public func register(stage: any Stage, module: String = #fileID) {
        contents.withLock { $0.stages.append(Entry(options: [], module: Self.module(module), plugin: stage)) }
    }

    /// The names and option keys the loader validates mapping files against.
    public var catalog: PluginCatalog {
        contents.withLock { contents in
            PluginCatalog(
                sources: contents.sources.mapValues(\.options), stores: contents.stores.mapValues(\.options),
                transformers: Array(contents.transformers.keys).sorted(),
                stages: contents.stageFactories.mapValues(\.options))
        }
    }

    /// Every plugin, by kind then name (the stages that run in every run in their order),
    /// with its options and module; the `exec` transformer, part of every run, is listed too.
    public var plugins: [PluginDescription] {
        contents.withLock { contents in
            func described<Plugin>(_ kind: PluginDescription.Kind, _ entries: [String: Entry<Plugin>])
                -> [PluginDescription]
            {
                entries.keys.sorted().compactMap { name in
                    entries[name].map {
                        PluginDescription(kind: kind, name: name, options: $0.options, module: $0.module)
                    }
                }
            }
            let exec = PluginDescription(
                kind: .transformer, name: "exec", options: ExecTransformer.options, module: "RMap")
            return described(.source, contents.sources) + described(.store, contents.stores)
                + (described(.transformer, contents.transformers) + [exec]).sorted { $0.name < $1.name }
                + described(.stage, contents.stageFactories)
                + contents.stages.map {
                    PluginDescription(kind: .stage, name: $0.plugin.name, options: [], module: $0.module, always: true)
                }
        }
    }

    /// Makes the source a `source:` block names.
    public func makeSource(_ config: PluginConfig, model: MappingModel) throws -> any Source {
        guard let entry = contents.withLock({ $0.sources[config.plugin] }) else {
            throw PluginError(.unknownPlugin(kind: .source, name: config.plugin), at: config.mark)
        }
        return try entry.plugin(config, model)
    }

    /// Makes the store a `store:` block (or `--store`) names.
    public func makeStore(_ config: PluginConfig) throws -> any Store {
        guard let entry = contents.withLock({ $0.stores[config.plugin] }) else {
            throw PluginError(.unknownPlugin(kind: .store, name: config.plugin))
        }
        return try entry.plugin(config)
    }

    /// Makes the stage a `stages:` item names.
    public func makeStage(_ config: PluginConfig, model: MappingModel) throws -> any Stage {
        guard let entry = contents.withLock({ $0.stageFactories[config.plugin] }) else {
            throw PluginError(.unknownPlugin(kind: .stage, name: config.plugin), at: config.mark)
        }
        return try entry.plugin(config, model)
    }

    /// The transformer named `name`.
    public func transformer(_ name: String) -> (any Transformer)? {
        contents.withLock { $0.transformers[name]?.plugin }
    }

    /// Every registered transformer by name.
    public var transformers: [String: any Transformer] { contents.withLock { $0.transformers.mapValues(\.plugin) } }

    /// The stages that run in every run, in registration order.
    public var stages: [any Stage] { contents.withLock { $0.stages.map(\.plugin) } }

    /// `RMapSQLite` of `RMapSQLite/PluginRegistry+SQLite.swift`: the module of a `#fileID`.
    private static func module(_ fileID: String) -> String {
        fileID.split(separator: "/", maxSplits: 1).first.map(String.init) ?? fileID
    }
}
