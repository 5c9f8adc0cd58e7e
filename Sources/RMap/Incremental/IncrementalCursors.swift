/// The cursors stored before a run, which incremental entities send as their
/// `incremental.param` (docs/mapping.md, "Incremental sync").
///
/// A cursor is kept per entity (key: the entity's name) and, for an entity
/// fetched once per parent, per parent (key: the entity's name and the values
/// its parent fills, e.g. `Project personId=3`), in the run-state scope
/// ``scope``.
///
/// ```swift
/// if let (name, value) = context.cursors.parameter(for: entity, fill: index.fill) {
///     url = QueryEncoding.appending([(name, value)], to: url)
/// }
/// ```
public struct IncrementalCursors: Sendable {
    /// The run-state scope of cursors.
    public static let scope = "cursor"

    /// Stored cursors by key.
    let stored: [String: JSONValue]

    /// Cursors as the store holds them (``Store/runState(scope:)`` of ``scope``); none for a `--full` run.
    public init(stored: [String: RunStateEntry] = [:]) {
        self.stored = stored.mapValues(\.value)
    }

    /// The query parameter that asks `entity`'s index (of the parent that `fill` names) for what
    /// changed: its stored cursor less the lag, written in the format, or `initial` when none is
    /// stored; `nil` for an entity that is not incremental or has neither.
    public func parameter(for entity: EntityMapping, fill: [String: Value] = [:]) -> (name: String, value: String)? {
        guard let sync = entity.incremental, let type = entity.attribute(named: sync.cursor)?.type else { return nil }
        if let cursor = stored[Self.key(entity: entity.name, fill: fill)],
            let value = CursorValue.parameter(cursor, type: type, sync: sync)
        {
            return (sync.param, value)
        }
        return sync.initial.map { (sync.param, $0) }
    }

    /// True when a run may fetch less than all of `entity`'s objects: it is incremental and
    /// has a stored cursor or an `initial` value.
    func isPartial(_ entity: EntityMapping) -> Bool {
        guard let sync = entity.incremental else { return false }
        return sync.initial != nil || stored.keys.contains { Self.owner(of: $0) == entity.name }
    }

    /// The stored keys of `entity`'s cursors.
    func keys(of entity: String) -> [String] {
        stored.keys.filter { Self.owner(of: $0) == entity }
    }

    /// The key of `entity`'s cursor for the parent whose values `fill` holds (`Project personId=3`).
    static func key(entity: String, fill: [String: Value]) -> String {
        let parent = fill.sorted { $0.key < $1.key }.map { "\($0.key)=\(IdentityKey([$0.value]))" }
        return ([entity] + parent).joined(separator: " ")
    }

    /// The entity a key belongs to.
    static func owner(of key: String) -> Substring {
        key.prefix { $0 != " " }
    }
}
