import Foundation

/// Payloads a source remembers by a hash of their bytes, so that a re-run skips an
/// unchanged one the way an HTTP `304` is skipped: its objects count as seen and unchanged
/// (``SourceRunState/unchanged(entity:identities:)``) without being parsed, mapped,
/// connected or written.
///
/// Kept in the run state (scope ``scope``, key: the payload's origin): the payload's hash,
/// the model's fingerprint (``MappingFingerprint``; a changed mapping file, variable or
/// rmap version forgets every payload) and the identities of every object the payload made,
/// nested ones included, by entity.
///
/// A mapped payload's stored entry is removed in the run's own transaction; its new entry is
/// written after that transaction committed (``confirmed(report:)``), and only when none of
/// its records was rejected and none of its objects' references dangled (a later run may
/// resolve them). Losing that second write costs a re-run a full mapping, never a wrong skip.
/// `rmap push` forgets every payload (its answers rewrite bases).
public final class RememberedPayloads: Sendable {
    /// The run-state scope of remembered payloads.
    public static let scope = "payload"

    private let model: MappingModel
    private let rules: PayloadSkipRules
    private let fingerprint: String
    private let state: SourceRunState
    private let map: @Sendable (Payload) async throws -> [String: [JSONValue]]?
    /// The key of the fingerprint of the mapping whose runs wrote the entries.
    static let mappingKey = "(mapping)"

    private let candidates = Locked<[String: JSONValue]>([:])
    /// Whether the stored entries belong to this mapping: `nil` until first read.
    private let current = Locked<Bool?>(nil)
    private let skipped = Locked<[String: [IdentityKey]]>([:])

    /// Payloads of `model` remembered in `state`, mapped through `map` (which returns the
    /// identities of every object a payload made, by entity, as ``storedIdentity(_:)`` forms them:
    /// `nil` when one has none); `nil` when the model may skip nothing (``PayloadSkipRules``).
    init?(
        model: MappingModel, state: SourceRunState,
        map: @escaping @Sendable (Payload) async throws -> [String: [JSONValue]]?
    ) {
        guard let rules = PayloadSkipRules(model: model) else { return nil }
        self.model = model
        self.rules = rules
        fingerprint = MappingFingerprint.of(model)
        self.state = state
        self.map = map
    }

    /// Maps the file at `path` for `entity`, unless its bytes are those of the payload remembered
    /// under the same origin (``skipsUnchanged(origin:hash:)``): then nothing is read beyond the hash.
    ///
    /// - Throws: the error reading the file, mapping it, or reading the run state.
    public func deliverFile(atPath path: String, entity: String) async throws {
        // Reading the file blocks: off the cooperative pool.
        let hash = try await DedicatedThread.run { try PayloadHash.ofFile(atPath: path) }.get()
        guard try await !skipsUnchanged(origin: path, hash: hash) else { return }
        try await deliver(Payload(origin: path, entity: entity, body: .file(path: path)), hash: hash)
    }

    /// True when the payload remembered under `origin` had the bytes hashed `hash` under the same
    /// mapping: its objects then count as seen and unchanged, and the payload need not be mapped.
    /// False otherwise; the remembered entry is then dropped with the run's data.
    ///
    /// - Throws: the store's errors reading the run state.
    public func skipsUnchanged(origin: String, hash: UInt64) async throws -> Bool {
        let entries = try await state.entries(scope: Self.scope)
        guard isCurrent(entries), let stored = entries[origin]?.value.object else { return false }
        if stored["hash"]?.string == String(hash, radix: 16), stored["mapping"]?.string == fingerprint,
            let objects = stored["objects"]?.object, let identities = identities(in: objects)
        {
            for (name, keys) in identities { state.unchanged(entity: name, identities: keys) }
            skipped.withLock { $0.merge(identities, uniquingKeysWith: +) }
            return true
        }
        var update = RunStateUpdate()
        update.remove(scope: Self.scope, key: origin)
        state.record(update)
        return false
    }

    /// True when the stored entries were written by runs of this mapping (a run of another one may
    /// have written the same objects since); when not, they are all removed with the run's data.
    private func isCurrent(_ entries: [String: RunStateEntry]) -> Bool {
        current.withLock { current in
            if let current { return current }
            let matches = entries[Self.mappingKey]?.value.string == fingerprint
            if !matches {
                var update = RunStateUpdate()
                update.clear(scope: Self.scope)
                state.record(update)
            }
            current = matches
            return matches
        }
    }

    /// Maps `payload`, whose bytes hash to `hash`, and keeps it to remember (``confirmed(report:)``)
    /// when every object it made may be skipped next time (``PayloadSkipRules``).
    ///
    /// - Throws: the mapping's errors.
    public func deliver(_ payload: Payload, hash: UInt64) async throws {
        guard let objects = try await map(payload), rules.allows(objects.keys, in: model) else { return }
        let entry = entry(hash: String(hash, radix: 16), objects: objects)
        candidates.withLock { $0[payload.origin] = entry }
    }

    /// The identities of the objects of `entity` and its sub-entities that skipped payloads hold:
    /// parents of a nested fetch as much as mapped ones.
    func skippedIdentities(of entity: String) -> [IdentityKey] {
        let family = model.family(of: entity).map(\.name)
        return skipped.withLock { skipped in family.flatMap { skipped[$0] ?? [] } }
    }

    /// The entries to write once the run's data is committed: those of the payloads mapped in
    /// this run none of whose records `report` rejected or found dangling.
    func confirmed(report: RunReport) -> RunStateUpdate {
        var troubled = Set(report.recordErrors.map(\.origin))
        // A dangling reference names its source's record: `origin#index`.
        troubled.formUnion(report.dangling.map { Self.payload(ofRecord: $0.origin) })
        var update = RunStateUpdate()
        guard report.connectErrors.isEmpty else { return update }
        for (origin, entry) in candidates.withLock({ $0 }) where !troubled.contains(origin) {
            update.set(scope: Self.scope, key: origin, to: entry)
        }
        if !update.isEmpty { update.set(scope: Self.scope, key: Self.mappingKey, to: .string(fingerprint)) }
        return update
    }

    /// The payload of a record's origin `payload#index` (`origin` itself when it names no record).
    private static func payload(ofRecord origin: String) -> String {
        guard let mark = origin.lastIndex(of: "#"), origin[origin.index(after: mark)...].allSatisfy(\.isNumber),
            mark < origin.index(before: origin.endIndex)
        else { return origin }
        return String(origin[..<mark])
    }

    /// An identity as a stored entry lists it: a lone identity attribute's value as it is, several
    /// as an array; `nil` when a value is missing (the object has no identity yet).
    static func storedIdentity(_ key: IdentityKey) -> JSONValue? {
        guard !key.isIncomplete else { return nil }
        return key.values.count == 1
            ? ValueConverter.json(from: key.values[0]) : .array(key.values.map { ValueConverter.json(from: $0) })
    }

    /// The stored entry of a payload: its hash, the model's fingerprint and its objects' identities
    /// (``storedIdentity(_:)``) by entity.
    private func entry(hash: String, objects: [String: [JSONValue]]) -> JSONValue {
        let members = objects.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.array($0.value)) }
        return .object(
            JSONObject([
                ("hash", .string(hash)), ("mapping", .string(fingerprint)), ("objects", .object(JSONObject(members))),
            ]))
    }

    /// The identities of a stored entry's objects, typed by their entities' identity attributes;
    /// `nil` when one does not read back (an entity or attribute the model no longer has).
    private func identities(in objects: JSONObject) -> [String: [IdentityKey]]? {
        var result: [String: [IdentityKey]] = [:]
        for (name, list) in objects.members {
            guard let entity = model.entity(named: name), let list = list.array else { return nil }
            let types = entity.identity.map { entity.attribute(named: $0)?.type ?? .string }
            var keys: [IdentityKey] = []
            keys.reserveCapacity(list.count)
            for item in list {
                let values = types.count == 1 ? [item] : (item.array ?? [])
                guard values.count == types.count else { return nil }
                var typed: [Value] = []
                for (value, type) in zip(values, types) {
                    guard let converted = ValueConverter.value(from: value, as: type) else { return nil }
                    typed.append(converted)
                }
                keys.append(IdentityKey(typed))
            }
            result[name] = keys
        }
        return result
    }
}
