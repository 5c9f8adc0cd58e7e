import Foundation

/// Payloads a source remembers by a hash of their bytes, so that a re-run skips an
/// unchanged one the way an HTTP `304` is skipped: its objects count as seen and unchanged
/// without being parsed, mapped, connected or written.
///
/// Kept in the run state (scope ``scope``, key: the payload's origin): the payload's hash and
/// the model's fingerprint (``MappingFingerprint``; a changed mapping file, variable or rmap
/// version forgets every payload); the identities of the objects the payload made, nested ones
/// included, are kept in the store's own tables (``RememberedObjects``), so that neither
/// remembering nor skipping a payload holds its objects in memory.
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
    let rules: PayloadSkipRules
    private let fingerprint: String
    private let state: SourceRunState
    private let map: @Sendable (Payload) async throws -> Void
    /// The key of the fingerprint of the mapping whose runs wrote the entries.
    static let mappingKey = "(mapping)"
    /// What a current entry says of where its objects are: in ``RememberedObjects``' tables, by
    /// payload number (an entry of the earlier form, `tables`, names tables that no longer hold
    /// its objects, and is not trusted).
    static let storedIn = "numbered-tables"

    /// The payloads mapped in this run, by origin: their hashes.
    let candidates = Locked<[String: String]>([:])
    /// Whether the stored entries belong to this mapping: `nil` until first read.
    private let current = Locked<Bool?>(nil)
    /// The payloads skipped unchanged, by origin.
    private let skipped = Locked<Set<String>>([])

    /// Payloads of `model` remembered in `state`, mapped through `map`; `nil` when the model may
    /// skip nothing (``PayloadSkipRules``).
    init?(model: MappingModel, state: SourceRunState, map: @escaping @Sendable (Payload) async throws -> Void) {
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
            stored["objects"]?.string == Self.storedIn
        {
            skipped.withLock { _ = $0.insert(origin) }
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

    /// Maps `payload`, whose bytes hash to `hash`, and keeps it to remember (``confirmed(report:)``).
    ///
    /// - Throws: the mapping's errors.
    public func deliver(_ payload: Payload, hash: UInt64) async throws {
        try await map(payload)
        candidates.withLock { $0[payload.origin] = String(hash, radix: 16) }
    }

    /// The payloads skipped unchanged in this run, by origin.
    var skippedOrigins: Set<String> { skipped.withLock { $0 } }

    /// The entries of the payloads whose objects were remembered.
    func entries(_ origins: [String: String]) -> RunStateUpdate {
        var update = RunStateUpdate()
        for (origin, hash) in origins {
            update.set(
                scope: Self.scope, key: origin,
                to: .object(
                    JSONObject([
                        ("hash", .string(hash)), ("mapping", .string(fingerprint)), ("objects", .string(Self.storedIn)),
                    ])))
        }
        if !update.isEmpty { update.set(scope: Self.scope, key: Self.mappingKey, to: .string(fingerprint)) }
        return update
    }
}
