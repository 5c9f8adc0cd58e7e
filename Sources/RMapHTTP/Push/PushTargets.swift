import Foundation
import RMap

/// Where each entity's changes go: the site, headers and credentials of its `http` source (the
/// same options the fetch reads; its paths' suffix is the model's, ``MappingModel/pathSuffix(of:)``).
struct PushTargets {
    struct Target {
        var site: URL
        var client: HTTPClient
        /// Rails JSON or JSON:API documents.
        var format: DocumentFormat
    }

    private var targets: [String: Target] = [:]
    private var problems: [String: SyncError] = [:]

    /// Reads each entity's http source (a sub-entity's records arrive through its root's source, and
    /// its changes go back through it: an `Admin` of Rails' single-table inheritance is PUT to
    /// `/people/1.json`); without `transport`, each client sends over libcurl with keep-alive (at
    /// most as many connections to a site as requests in flight). The clients share their
    /// `rate_limit` budgets and OAuth2 tokens.
    init(model: MappingModel, transport: (any HTTPTransport)?, tuning: (inout RetryPolicy) -> Void) {
        let pool = ClientPool()
        var clients: [PluginConfig: Target] = [:]
        for entity in model.entities {
            // A sub-entity goes to its root's source; a JSON:API entity without one (included only)
            // to the source it arrives from.
            guard let config = entity.source ?? model.root(of: entity).source ?? entity.jsonAPI?.source,
                config.plugin == "http"
            else {
                problems[entity.name] = .noPushSource(entity: entity.name)
                continue
            }
            if let target = clients[config] {
                targets[entity.name] = target
                continue
            }
            do {
                let settings = try HTTPSourceSettings(config)
                let client = settings.client(
                    model: model, pool: pool, transport: transport ?? CurlTransport(reusingConnections: true),
                    tuning: tuning)
                let target = Target(site: settings.site, client: client, format: settings.format)
                clients[config] = target
                targets[entity.name] = target
            } catch {
                problems[entity.name] = .unusablePushSource(entity: entity.name, reason: "\(error)")
            }
        }
    }

    /// The target of an entity.
    ///
    /// - Throws: ``SyncError`` when the entity has no usable http source.
    func target(_ entity: String) throws -> Target {
        guard let target = targets[entity] else { throw problems[entity] ?? .unknownEntity(entity) }
        return target
    }
}
