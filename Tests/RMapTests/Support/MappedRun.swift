import Foundation

@testable import RMap

/// One run of JSON payloads given inline, without a source file.
enum MappedRun {
    /// Runs `payloads` (entity, JSON array), in this order, with the model `yaml` through
    /// ``Pipeline`` (mapped, staged, connected and merged in the store's engine) into the store of
    /// `kind` in `directory`, with `options` (its store aside): only the entities given a payload are fetched.
    ///
    /// - Returns: the run's report.
    @discardableResult
    static func run(
        _ yaml: String, _ payloads: [(entity: String, json: String)], kind: StoreKind, directory: URL,
        options: RunOptions = RunOptions()
    ) async throws -> RunReport {
        let registry = PluginRegistry.standard()
        let source = InlinePayloads(payloads: payloads)
        registry.register(source: "inline", options: []) { _, _ in source }
        registry.register(store: "mapped", options: []) { _ in try kind.open(directory) }
        let inline = StreamedRun.inline(
            try StoreFixtures.model(yaml), fetching: Set(payloads.map(\.entity)), store: PluginConfig(plugin: "mapped"))
        return try await Pipeline(model: inline, registry: registry).run(options).report
    }
}

/// The payloads of a ``MappedRun``, delivered in their order, each as `<entity>.json`.
private struct InlinePayloads: Source {
    let payloads: [(entity: String, json: String)]

    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        let names = Set(entities.map(\.name))
        for (entity, json) in payloads where names.contains(entity) {
            let origin = "\(entity).json"
            let document = try JSONReader.parse(json, origin: origin)
            try await context.deliver(Payload(origin: origin, entity: entity, body: .document(document)))
        }
    }
}
