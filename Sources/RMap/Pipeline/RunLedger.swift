import Foundation

/// What sources tell a run beside their payloads: run state to write in the
/// run's transaction (a Singer `STATE`), and the entities whose fetch was not
/// complete (so that `orphans: delete` leaves their stored objects alone).
///
/// The pipeline reads the stored state of the scopes the model needs
/// (``MappingModel/runStateScopes``) before it fetches, and hands the ledger to
/// every source in its ``FetchContext``; sources may use it concurrently.
///
/// ```swift
/// let resume = context.ledger.stored(scope: "singer", key: "tap-github")
/// context.ledger.set(scope: "singer", key: "tap-github", to: newState)
/// ```
public final class RunLedger: @unchecked Sendable {
    // The one lock guards `update` and `incomplete`; no call waits while holding it.
    private let lock = NSLock()
    private let stored: [String: [String: RunStateEntry]]
    private var update = RunStateUpdate()
    private var incomplete: Set<String> = []

    /// A ledger over the state a store held before the run, by scope, then key.
    public init(stored: [String: [String: RunStateEntry]] = [:]) {
        self.stored = stored
    }

    /// Reads `scopes` from `store` (none when there is no store).
    ///
    /// - Throws: the store's error when it cannot read its run state.
    convenience init(scopes: [String], store: (any Store)?) throws {
        var stored: [String: [String: RunStateEntry]] = [:]
        if let store {
            for scope in scopes { stored[scope] = try store.runState(scope: scope) }
        }
        self.init(stored: stored)
    }

    /// The value the last committed run left under `scope` and `key`.
    public func stored(scope: String, key: String) -> JSONValue? {
        stored[scope]?[key]?.value
    }

    /// Writes `value` under `scope` and `key` when the run commits.
    public func set(scope: String, key: String, to value: JSONValue) {
        lock.withLock { update.set(scope: scope, key: key, to: value) }
    }

    /// Marks an entity's fetch as incomplete: this run's objects are not all it has.
    public func markIncomplete(_ entity: String) {
        _ = lock.withLock { incomplete.insert(entity) }
    }

    /// The run state to write.
    public var runState: RunStateUpdate { lock.withLock { update } }

    /// The entities marked incomplete.
    public var incompleteEntities: Set<String> { lock.withLock { incomplete } }
}
