import Foundation

/// The one seam through which concurrent sources reach the graph: payloads
/// are mapped one at a time under a lock.
///
/// The graph and mapper are not `Sendable`; every access to them goes
/// through its methods, which hold the lock. The live session (`RMapHTTP`'s
/// `Session`) maps its answers through it too.
public final class MappingSink: @unchecked Sendable {
    private let lock = NSLock()
    private let graph: ObjectGraph
    private let mapper: RecordMapper
    /// Per entity, the attributes its payloads filled from a parent (whose cursors are kept apart).
    private var filled: [String: Set<String>] = [:]

    /// Creates the seam over a graph and the mapper that fills it.
    public init(graph: ObjectGraph, mapper: RecordMapper) {
        self.graph = graph
        self.mapper = mapper
    }

    /// Maps a payload into the graph; returns how many records of its entity were mapped so far,
    /// counting those mapped as a sub-entity (a polymorphic payload's `Admin` records).
    public func deliver(_ payload: Payload) throws -> Int {
        try lock.withLock { try unlockedDeliver(payload) }
    }

    private func unlockedDeliver(_ payload: Payload) throws -> Int {
        if !payload.fill.isEmpty { filled[payload.entity, default: []].formUnion(payload.fill.keys) }
        try mapper.map(payload)
        guard let type = graph.schema.type(named: payload.entity) else { return 0 }
        return graph.schema.family(of: type).reduce(0) { $0 + (mapper.report.entities[$1.name]?.fetched ?? 0) }
    }

    /// Maps a payload into the graph; returns how many records of its entity were mapped so far
    /// and the identities of this payload's records' objects.
    func deliverIdentified(_ payload: Payload) throws -> (count: Int, identities: [IdentityKey]) {
        try lock.withLock {
            mapper.identified = []
            defer { mapper.identified = nil }
            let count = try unlockedDeliver(payload)
            return (count, mapper.identified ?? [])
        }
    }

    /// Per entity, the attributes that its payloads filled from a parent.
    var fills: [String: Set<String>] { lock.withLock { filled } }

    /// The identities of an entity's objects so far.
    public func identities(of entity: String) -> [IdentityKey] {
        lock.withLock { graph.objects(of: entity).map(\.identity).filter { !$0.isIncomplete } }
    }
}
