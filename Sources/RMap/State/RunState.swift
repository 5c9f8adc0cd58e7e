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
/// let request = WriteRequest(runState: state)  // what the run's merge commits with its data
/// ```
public struct RunStateUpdate: Sendable, Equatable {
    /// An entry to write: a value, or JSON text its owner formed (``set(scope:key:json:)``).
    enum Entry: Sendable, Equatable {
        case value(JSONValue)
        case text(String)
    }

    /// Entries written or replaced, by scope, then key.
    private(set) var entries: [String: [String: Entry]] = [:]
    /// Scopes whose stored entries are removed before ``values`` are written (a reset).
    public private(set) var clearedScopes: Set<String> = []
    /// Keys whose stored entries are removed, by scope (unless ``values`` writes them).
    public private(set) var removed: [String: Set<String>] = [:]

    /// An update that changes nothing.
    public init() {}

    /// Entries written or replaced, by scope, then key (those given as JSON text left out).
    public var values: [String: [String: JSONValue]] {
        entries.compactMapValues { scope in
            let values = scope.compactMapValues { entry -> JSONValue? in
                if case .value(let value) = entry { value } else { nil }
            }
            return values.isEmpty ? nil : values
        }
    }

    /// True when writing it changes nothing.
    public var isEmpty: Bool { entries.isEmpty && clearedScopes.isEmpty && removed.isEmpty }

    /// Writes `value` under `scope` and `key`, replacing what is stored there.
    public mutating func set(scope: String, key: String, to value: JSONValue) {
        entries[scope, default: [:]][key] = .value(value)
    }

    /// Writes the JSON text `json` under `scope` and `key`, replacing what is stored there: for an
    /// entry that would be large as a ``JSONValue`` tree (``RememberedPayloads``' lists of identities).
    mutating func set(scope: String, key: String, json: String) {
        entries[scope, default: [:]][key] = .text(json)
    }

    /// Removes the stored entry under `scope` and `key` (unless ``set(scope:key:to:)`` names it).
    public mutating func remove(scope: String, key: String) {
        removed[scope, default: []].insert(key)
    }

    /// Removes every stored entry of `scope` first; entries ``set(scope:key:to:)`` names stay written.
    public mutating func clear(scope: String) {
        clearedScopes.insert(scope)
    }

    /// Adds `other`'s entries and cleared scopes (its entries win).
    public mutating func merge(_ other: RunStateUpdate) {
        for (scope, entries) in other.entries { self.entries[scope, default: [:]].merge(entries) { _, new in new } }
        clearedScopes.formUnion(other.clearedScopes)
        for (scope, keys) in other.removed { removed[scope, default: []].formUnion(keys) }
    }

    /// The entries to write as JSON text, ordered by scope, then key.
    var serializedEntries: [(scope: String, key: String, json: String)] {
        entries.sorted { $0.key < $1.key }.flatMap { scope, entries in
            entries.sorted { $0.key < $1.key }.map { key, entry in
                switch entry {
                case .value(let value): (scope, key, JSONWriter.serialize(value))
                case .text(let json): (scope, key, json)
                }
            }
        }
    }
}
