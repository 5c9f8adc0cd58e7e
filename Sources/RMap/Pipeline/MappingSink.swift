/// The one seam through which concurrent sources reach the run's staging tables: the mapping
/// task, a ``SerialWorker`` that maps payloads one at a time, in the order they arrive.
///
/// A source awaits each delivery until its payload is mapped, so it runs at most one
/// payload ahead of the mapping (the back-pressure), and parsing a payload's file,
/// which may wait for the thread reading it, blocks no task of the cooperative pool.
/// The mapper is not `Sendable`: only the worker touches it until the
/// fetch is over (every delivery returned). The live session (`RMapHTTP`'s
/// `Session`) maps its answers through it too (``Pipeline/load(_:from:parents:into:)``).
public final class MappingSink: Sendable {
    private let worker = SerialWorker(label: "rmap.mapping")
    private let state: Confined<MappingState>

    /// Creates the seam over the mapper that stages the records.
    package init(mapper: RecordMapper) {
        state = Confined(MappingState(mapper: mapper))
    }

    /// Maps a payload; returns how many records of its entity its payloads brought
    /// so far, counting those mapped as a sub-entity (a polymorphic payload's `Admin` records).
    public func deliver(_ payload: Payload) async throws -> Int {
        try await deliverCounted(payload).records
    }

    /// Maps a payload; returns the records of its entity that its payloads brought
    /// so far, and those of other entities nested in them.
    func deliverCounted(_ payload: Payload) async throws -> MappedCounts {
        try await worker.run { [state] in try state.value.deliver(payload) }
    }

    /// Maps a payload; returns what it counted (``deliverCounted(_:)``) and the
    /// identities of this payload's records' objects.
    package func deliverIdentified(_ payload: Payload) async throws -> (count: MappedCounts, identities: [IdentityKey])
    {
        try await worker.run { [state] in
            let mapper = state.value.mapper
            mapper.identified = []
            defer { mapper.identified = nil }
            let count = try state.value.deliver(payload)
            return (count, mapper.identified ?? [])
        }
    }

    /// Stages what the mapper batched (a streamed run's last rows).
    func flushStaged() async throws {
        try await worker.run { [state] in try state.value.mapper.stage.flush() }
    }

    /// Adds the rejections the store found after mapping to the mapper's report.
    func add(_ rejections: RequiredCheck.Rejections) async {
        await worker.run { [state] in state.value.mapper.add(rejections) }
    }

    /// The candidates for required-value errors in rejected records so far, handed over once:
    /// the store's ``RequiredCheck`` confirms or withdraws them.
    var requiredCandidates: [RequiredCheck.Candidate] {
        get async {
            await worker.run { [state] in
                defer { state.value.mapper.requiredCandidates = [] }
                return state.value.mapper.requiredCandidates
            }
        }
    }

    /// The mapping report so far.
    var report: MappingReport {
        get async { await worker.run { [state] in state.value.mapper.report } }
    }

    /// Per entity, the attributes that its payloads filled from a parent.
    var fills: [String: Set<String>] {
        get async { await worker.run { [state] in state.value.filled } }
    }
}

/// The records a payload's entity received so far: its own (its family's, from its payloads) and,
/// by the root entity of their table, those nested in them.
package struct MappedCounts: Sendable, Equatable {
    /// Records of the entity (and its sub-entities) that its payloads brought so far.
    package var records: Int
    /// Records of other entities that arrived nested in its payloads so far, by root entity.
    package var nested: [String: Int] = [:]
}

/// What the mapping task owns.
private struct MappingState {
    let mapper: RecordMapper
    /// Per entity, the attributes its payloads filled from a parent (whose cursors are kept apart).
    var filled: [String: Set<String>] = [:]
    /// Per payload entity, what its payloads brought so far.
    var counts: [String: MappedCounts] = [:]

    mutating func deliver(_ payload: Payload) throws -> MappedCounts {
        if !payload.fill.isEmpty { filled[payload.entity, default: []].formUnion(payload.fill.keys) }
        try mapper.map(payload)
        let schema = mapper.schema
        guard let type = schema.type(named: payload.entity) else { return MappedCounts(records: 0) }
        let family = schema.family(of: type).map(\.index)
        var counts = self.counts[payload.entity] ?? MappedCounts(records: 0)
        for (index, added) in mapper.fetchedInLastPayload where added > 0 {
            if family.contains(index) {
                counts.records += added
            } else {
                counts.nested[schema.root(of: schema.types[index]).name, default: 0] += added
            }
        }
        self.counts[payload.entity] = counts
        return counts
    }
}
