import Foundation

/// One entry of a store's run state: a JSON value a run keeps for the next
/// one (a cursor, an `ETag`, a Singer `STATE`), under a scope and a key.
public struct RunStateEntry: Sendable, Hashable {
    /// Who owns the entry, e.g. `cursor`, `http` or `singer`.
    public var scope: String
    /// The entry's name within its scope, e.g. an entity or a URL.
    public var key: String
    /// The value.
    public var value: JSONValue
    /// When the run that wrote it committed (ISO 8601, UTC); empty before it is written.
    public var updatedAt: String

    /// Creates an entry.
    public init(scope: String, key: String, value: JSONValue, updatedAt: String = "") {
        self.scope = scope
        self.key = key
        self.value = value
        self.updatedAt = updatedAt
    }
}

/// Run-state entries to write with a run's data, in the run's transaction
/// (``WriteRequest/runState``): a failed, rolled-back or `--strict`-rejected run
/// writes none of them, and a dry run none either.
///
/// ```swift
/// var state = RunStateUpdate()
/// state.set(scope: "singer", key: "tap-github", to: .object(bookmarks))
/// try store.write(graph, request: WriteRequest(runState: state))
/// ```
public struct RunStateUpdate: Sendable, Equatable {
    /// Entries written or replaced, by scope, then key.
    public private(set) var values: [String: [String: JSONValue]] = [:]
    /// Scopes whose stored entries are removed before ``values`` are written (a reset).
    public private(set) var clearedScopes: Set<String> = []

    /// An update that changes nothing.
    public init() {}

    /// True when writing it changes nothing.
    public var isEmpty: Bool { values.isEmpty && clearedScopes.isEmpty }

    /// Writes `value` under `scope` and `key`, replacing what is stored there.
    public mutating func set(scope: String, key: String, to value: JSONValue) {
        values[scope, default: [:]][key] = value
    }

    /// Removes every stored entry of `scope` first; entries ``set(scope:key:to:)`` names stay written.
    public mutating func clear(scope: String) {
        clearedScopes.insert(scope)
    }

    /// Adds `other`'s entries and cleared scopes (its entries win).
    public mutating func merge(_ other: RunStateUpdate) {
        for (scope, entries) in other.values { values[scope, default: [:]].merge(entries) { _, new in new } }
        clearedScopes.formUnion(other.clearedScopes)
    }
}
