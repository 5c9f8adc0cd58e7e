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
    private let map: @Sendable (Payload) async throws -> [String: [Int32]]
    /// The key of the fingerprint of the mapping whose runs wrote the entries.
    static let mappingKey = "(mapping)"

    /// The payloads mapped in this run, by origin: their hashes and their objects' graph rows by entity.
    private let candidates = Locked<[String: (hash: String, rows: [String: [Int32]])]>([:])
    /// Whether the stored entries belong to this mapping: `nil` until first read.
    private let current = Locked<Bool?>(nil)
    private let skipped = Locked<[String: [IdentityKey]]>([:])

    /// Payloads of `model` remembered in `state`, mapped through `map` (which returns the graph
    /// row of every object a payload made, by entity); `nil` when the model may skip nothing
    /// (``PayloadSkipRules``).
    init?(
        model: MappingModel, state: SourceRunState,
        map: @escaping @Sendable (Payload) async throws -> [String: [Int32]]
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
        let rows = try await map(payload)
        guard rules.allows(rows.keys, in: model) else { return }
        candidates.withLock { $0[payload.origin] = (String(hash, radix: 16), rows) }
    }

    /// The identities of the objects of `entity` and its sub-entities that skipped payloads hold:
    /// parents of a nested fetch as much as mapped ones.
    func skippedIdentities(of entity: String) -> [IdentityKey] {
        let family = model.family(of: entity).map(\.name)
        return skipped.withLock { skipped in family.flatMap { skipped[$0] ?? [] } }
    }

    /// The entries to write once the run's data is committed: those of the payloads mapped into
    /// `graph` in this run none of whose records `report` rejected or found dangling, and all of
    /// whose objects have an identity.
    func confirmed(report: RunReport, graph: ObjectGraph) -> RunStateUpdate {
        var troubled = Set(report.recordErrors.map(\.origin))
        // A dangling reference names its source's record: `origin#index`.
        troubled.formUnion(report.dangling.map { Self.payload(ofRecord: $0.origin) })
        var update = RunStateUpdate()
        guard report.connectErrors.isEmpty else { return update }
        for (origin, candidate) in candidates.withLock({ $0 }) where !troubled.contains(origin) {
            guard let entry = entry(hash: candidate.hash, rows: candidate.rows, graph: graph) else { continue }
            update.set(scope: Self.scope, key: origin, json: entry)
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

    /// The stored entry of a payload, as JSON text: its hash, the model's fingerprint and the
    /// identities (``storedIdentity(_:)``) of the objects at its graph rows, by entity; `nil` when
    /// one has no identity. Written straight as text: a payload of a million objects would hold a
    /// million ``JSONValue``s (24 bytes each) as a tree.
    private func entry(hash: String, rows: [String: [Int32]], graph: ObjectGraph) -> String? {
        var text: [UInt8] = []
        text.reserveCapacity(64 + rows.values.reduce(0) { $0 + 8 * $1.count })
        func append(_ literal: String) { text.append(contentsOf: literal.utf8) }
        append("{\"hash\":")
        JSONWriter.write(.string(hash), into: &text)
        append(",\"mapping\":")
        JSONWriter.write(.string(fingerprint), into: &text)
        append(",\"objects\":{")
        for (index, (entity, objects)) in rows.sorted(by: { $0.key < $1.key }).enumerated() {
            guard let root = graph.schema.type(named: entity)?.rootIndex else { return nil }
            if index > 0 { append(",") }
            JSONWriter.write(.string(entity), into: &text)
            append(":[")
            for (position, row) in objects.enumerated() {
                let object = GraphObject(graph: graph, root: root, row: Int(row))
                guard let identity = Self.storedIdentity(object.identity) else { return nil }
                if position > 0 { append(",") }
                JSONWriter.write(identity, into: &text)
            }
            append("]")
        }
        append("}}")
        return String(decoding: text, as: UTF8.self)
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
