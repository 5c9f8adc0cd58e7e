import Foundation
public import RMap

/// The rules every ``Source`` follows (docs/plugins.md), checked by running the sources a
/// sample mapping names, as a run would, with the plugins of `registry`:
///
/// - **delivers the sample's records**: each source delivers at least one payload, and fetching
///   does not fail;
/// - **delivers only the entities it is given**, each payload naming where it came from
///   (its `origin`), and every payload parses and maps;
/// - **keeps secrets out of what it shows**: no value read from a secret variable is in an
///   origin or an error;
/// - **delivers the same records again**: a second fetch maps the same identities;
/// - **fails when delivering fails**: when the pipeline's `deliver` throws, `fetch` throws.
///
/// ```swift
/// let registry = PluginRegistry.standard()
/// registry.register(source: "csv", options: ["path"]) { config, _ in CSVSource(config: config) }
/// let violations = try await SourceConformance(registry: registry, mappings: ["mappings/people.yml"]).check()
/// #expect(violations.isEmpty, "\(violations)")
/// ```
public struct SourceConformance: Sendable {
    /// The plugins, the sources under test among them.
    public let registry: PluginRegistry
    /// Mapping files whose sources are checked.
    public let mappings: [String]
    /// The variables `${VAR}` reads (the process's when `nil`).
    public let environment: [String: String]?

    /// Creates a check of the sources `mappings` name.
    public init(registry: PluginRegistry, mappings: [String], environment: [String: String]? = nil) {
        self.registry = registry
        self.mappings = mappings
        self.environment = environment
    }

    /// The violations of every source the mappings name.
    ///
    /// - Throws: ``MappingError`` when the mappings do not load, ``PluginError`` when a source cannot be made.
    public func check() async throws -> [ConformanceViolation] {
        let model = try MappingLoader(environment: environment, catalog: registry.catalog).load(mappings)
        var groups: [(config: PluginConfig, entities: [EntityMapping])] = []
        for entity in model.entities {
            guard let config = entity.source else { continue }
            if let index = groups.firstIndex(where: { $0.config == config }) {
                groups[index].entities.append(entity)
            } else {
                groups.append((config, [entity]))
            }
        }
        let first = SourceRecorder(model: model, registry: registry)
        let second = SourceRecorder(model: model, registry: registry)
        var violations: [ConformanceViolation] = []
        for group in groups {
            let source = try registry.makeSource(group.config, model: model)
            let check = SourceCheck(
                plugin: "source '\(group.config.plugin)' (\(group.config.mark))", model: model, entities: group.entities
            )
            violations += await check.fetches(source, into: first)
            violations += await check.fetches(source, into: second, again: true)
            violations += await check.failsWhenDeliveringFails(source, parents: first)
        }
        for entity in model.entities {
            let (before, after) = (Set(first.identities(of: entity.name)), Set(second.identities(of: entity.name)))
            guard before != after else { continue }
            violations.append(
                ConformanceViolation(
                    plugin: "source '\(entity.source?.plugin ?? "?")'", rule: "delivers the same records again",
                    detail: "\(entity.name): \(before.count) object(s), then \(after.count)"))
        }
        return violations
    }
}

/// The checks of one source on the entities it fetches.
struct SourceCheck {
    let plugin: String
    let model: MappingModel
    let entities: [EntityMapping]

    /// A violation of `rule`.
    func violation(_ rule: String, _ detail: String) -> ConformanceViolation {
        ConformanceViolation(plugin: plugin, rule: rule, detail: detail)
    }

    /// Fetches into `recorder`; on the first fetch (`again` false), checks what was delivered.
    func fetches(_ source: any Source, into recorder: SourceRecorder, again: Bool = false) async
        -> [ConformanceViolation]
    {
        let before = recorder.payloads.count
        var violations: [ConformanceViolation] = []
        do {
            try await source.fetch(entities, context: recorder.context())
        } catch {
            violations += secrets(in: "\(error)", what: "an error")
            return violations + [violation("delivers the sample's records", "fetching failed: \(error)")]
        }
        guard !again else { return [] }
        let delivered = recorder.payloads.dropFirst(before)
        if delivered.isEmpty { violations.append(violation("delivers the sample's records", "no payload delivered")) }
        let names = Set(entities.map(\.name))
        for payload in delivered {
            if !names.contains(payload.entity) {
                violations.append(
                    violation(
                        "delivers only the entities it is given",
                        "a payload for '\(payload.entity)' (\(payload.origin))"))
            }
            if payload.origin.isEmpty {
                violations.append(
                    violation("names where each payload came from", "a payload for '\(payload.entity)' has no origin"))
            }
            violations += secrets(in: payload.origin, what: "an origin")
            if let failure = payload.failure {
                violations.append(violation("delivers payloads that parse and map", "\(payload.origin): \(failure)"))
            }
        }
        return violations
    }

    /// Fetches with a `deliver` that throws (and the parents `recorder` mapped): the fetch must throw.
    func failsWhenDeliveringFails(_ source: any Source, parents recorder: SourceRecorder) async
        -> [ConformanceViolation]
    {
        let refused = Locked(false)
        let context = FetchContext(
            model: model,
            deliver: { _ in
                refused.withLock { $0 = true }
                throw DeliveryRefused()
            }, identities: { recorder.identities(of: $0) }, progress: { _ in })
        do {
            try await source.fetch(entities, context: context)
        } catch {
            return []
        }
        return refused.withLock { $0 }
            ? [violation("fails when delivering fails", "fetch returned although deliver threw")] : []
    }

    private func secrets(in text: String, what: String) -> [ConformanceViolation] {
        model.secrets.contains { !$0.isEmpty && text.contains($0) }
            ? [violation("keeps secrets out of what it shows", "\(what) shows a secret value: use model.redact(_:)")]
            : []
    }

    /// What the pipeline's `deliver` throws in ``failsWhenDeliveringFails(_:)``.
    struct DeliveryRefused: Error {}
}

/// The pipeline's side of a fetch in a conformance check: maps each payload through a
/// ``MappingSink``, as a run does (into no store: ``RecordMapper/init(checking:transformers:)``),
/// and keeps what was delivered and the identities of each entity's records.
final class SourceRecorder: Sendable {
    struct Delivered: Sendable {
        var entity: String
        var origin: String
        /// Why mapping the payload threw, when it did.
        var failure: String?
    }

    /// The identities of a payload entity's records, in the order they first came.
    private struct Identities {
        var ordered: [IdentityKey] = []
        var known: Set<IdentityKey> = []
    }

    private let sink: MappingSink
    private let model: MappingModel
    private let delivered = Locked<[Delivered]>([])
    private let identified = Locked<[String: Identities]>([:])

    init(model: MappingModel, registry: PluginRegistry) {
        self.model = model
        sink = MappingSink(
            mapper: RecordMapper(checking: GraphSchema(model: model), transformers: registry.transformers))
    }

    /// The payloads delivered so far.
    var payloads: [Delivered] { delivered.withLock { $0 } }

    /// The identities of the records mapped so far from the payloads of `entity`.
    func identities(of entity: String) -> [IdentityKey] {
        identified.withLock { $0[entity]?.ordered ?? [] }
    }

    /// A context whose `deliver` maps through this recorder's sink.
    func context() -> FetchContext {
        FetchContext(
            model: model,
            deliver: { payload in
                var failure: String?
                do {
                    let identities = try await self.sink.deliverIdentified(payload).identities
                    self.identified.withLock { all in
                        var entry = all[payload.entity] ?? Identities()
                        for identity in identities where entry.known.insert(identity).inserted {
                            entry.ordered.append(identity)
                        }
                        all[payload.entity] = entry
                    }
                } catch {
                    failure = "\(error)"
                }
                self.delivered.withLock {
                    $0.append(Delivered(entity: payload.entity, origin: payload.origin, failure: failure))
                }
            },
            identities: { self.identities(of: $0) },
            progress: { _ in })
    }
}
