/// Sets one relationship's links and keeps its inverse consistent, the way
/// Core Data maintains inverses for RestKit.
///
/// When relationship `R` (inverse `I`) links source `S` to destination `D`,
/// `D.I` comes to hold `S`: appended to a to-many (once), or replacing a
/// to-one's object. A to-one inverse replaced this way drops `D` from the
/// previous holder's `R`, so the last source to claim `D` keeps it. A link
/// that `S` no longer has is removed from `D.I`. To-one inverses are set as
/// the links are made; to-many ones are gathered as row pairs and applied by
/// ``flush()`` in one pass per destination, so the cost stays linear in the
/// links however many sources share a destination.
final class LinkWriter {
    private let name: String
    private let inverse: String?
    /// Whether the relationship is a to-one (a source's links: one object at most).
    private let toOne: Bool
    private var graph: ObjectGraph?
    private var sourceRoot = 0
    private var destinationRoot = 0
    /// Per entity position, set at the first link: the position of its inverse (`nil`: none).
    private var inverses: [Int?] = []
    /// Per entity position, set at the first link: the position of its inverse when that is a to-one.
    private var toOneInverses: [Int?] = []
    /// About how many sources will be linked: room for their pairs is made at the first pair.
    private let expectedSources: Int
    /// (destination row, source row) of every link to a to-many inverse, in link order.
    private var additions: [(destination: Int32, source: Int32)] = []
    /// (destination row, source row) of every link to a to-many inverse that the sources lost.
    private var removals: [(destination: Int32, source: Int32)] = []

    /// A writer for the relationship `relationship`, which about `sources` objects will be linked through.
    init(_ relationship: RelationshipMapping, sources: Int) {
        name = relationship.name
        inverse = relationship.inverse
        toOne = relationship.kind == .toOne
        expectedSources = sources
    }

    /// Sets `source`'s relationship at `position` to `destinations` and records the inverse changes.
    func link(_ source: GraphObject, at position: Int, to destinations: [GraphObject]) {
        guard inverse != nil else {
            source.setRelated(at: position, to: destinations)
            return
        }
        let previous = source.related(at: position)
        source.setRelated(at: position, to: destinations)
        start(at: source, position: position)
        for old in previous where !destinations.contains(old) { unlink(old, from: source) }
        for destination in destinations { add(destination, for: source) }
    }

    /// Sets `source`'s relationship at `position` to `destination` alone (`nil`: to nothing): a
    /// to-one's usual link, without arrays.
    func link(_ source: GraphObject, at position: Int, to destination: GraphObject?) {
        guard toOne else { return link(source, at: position, to: destination.map { [$0] } ?? []) }
        guard inverse != nil else { return source.setRelated(at: position, to: destination) }
        let previous = source.relatedObject(at: position)
        source.setRelated(at: position, to: destination)
        start(at: source, position: position)
        if let previous, previous != destination { unlink(previous, from: source) }
        if let destination { add(destination, for: source) }
    }

    /// Learns the tables and inverses at the first link.
    private func start(at source: GraphObject, position: Int) {
        guard graph == nil else { return }
        graph = source.graph
        sourceRoot = source.root
        destinationRoot = source.graph.slot(of: source.type, relationship: position).destination
        let types = source.graph.schema.types
        inverses = types.map { type in inverse.flatMap { type.relationshipIndex($0) } }
        toOneInverses = zip(types, inverses).map { type, position in
            position.flatMap { type.mapping.relationships[$0].kind == .toOne ? $0 : nil }
        }
    }

    /// Drops `source` from the inverse of `old`, a destination it no longer links to.
    private func unlink(_ old: GraphObject, from source: GraphObject) {
        if let position = toOneInverses[old.type.index] {
            if old.relatedObject(at: position) == source { old.setRelated(at: position, to: nil) }
        } else {
            removals.append((Int32(old.row), Int32(source.row)))
        }
    }

    /// Adds `source` to the inverse of `destination`: at once for a to-one inverse (such inverses
    /// are set as links are made, one object to replace), at ``flush()`` for a to-many one.
    private func add(_ destination: GraphObject, for source: GraphObject) {
        if let position = toOneInverses[destination.type.index] {
            claim(destination, inverseAt: position, for: source)
        } else {
            if additions.isEmpty { additions.reserveCapacity(expectedSources) }
            additions.append((Int32(destination.row), Int32(source.row)))
        }
    }

    /// Points `destination`'s to-one inverse at `source`, dropping `destination` from its former holder.
    private func claim(_ destination: GraphObject, inverseAt position: Int, for source: GraphObject) {
        let holder = destination.relatedObject(at: position)
        guard holder != source else { return }
        if let holder, let relationship = holder.type.relationshipIndex(name) {
            holder.setRelated(at: relationship, to: holder.related(at: relationship).filter { $0 != destination })
        }
        destination.setRelated(at: position, to: [source])
    }

    /// Applies the recorded inverse changes.
    func flush() {
        guard inverse != nil, let graph else { return }
        for (row, sources) in Dictionary(grouping: removals, by: \.destination) {
            let destination = GraphObject(graph: graph, root: destinationRoot, row: Int(row))
            guard let position = inverses[destination.type.index] else { continue }
            let lost = Set(sources.map { Int($0.source) })
            destination.setRelated(
                at: position, to: destination.related(at: position).filter { !lost.contains($0.row) })
        }
        forEachDestination { destination, sources in
            guard let position = inverses[destination.type.index] else { return }
            let current = destination.related(at: position)
            // A writer links each source once, so its holders are distinct: only earlier holders can repeat.
            guard !current.isEmpty else { return destination.setRelated(at: position, toRows: sources, of: sourceRoot) }
            let holders = sources.map { GraphObject(graph: graph, root: sourceRoot, row: Int($0)) }
            var present = Set(current)
            destination.setRelated(at: position, to: current + holders.filter { present.insert($0).inserted })
        }
        removals = []
        additions = []
    }

    /// Calls `body` for each destination that gained links, with its sources in link order
    /// (grouped by a counting sort on the destination row: linear in the links).
    private func forEachDestination(_ body: (GraphObject, ArraySlice<Int32>) -> Void) {
        guard let graph, !additions.isEmpty else { return }
        let rows = graph.table(destinationRoot).rowCount
        // ends[d] is first the end of d's range; placing the links backwards leaves it at d's start.
        var ends = [Int32](repeating: 0, count: rows + 1)
        for link in additions { ends[Int(link.destination)] += 1 }
        for row in 0..<rows { ends[row + 1] += ends[row] }
        var sources = [Int32](repeating: 0, count: additions.count)
        for link in additions.reversed() {
            ends[Int(link.destination)] -= 1
            sources[Int(ends[Int(link.destination)])] = link.source
        }
        additions = []
        for row in 0..<rows where ends[row + 1] > ends[row] {
            let range = Int(ends[row])..<Int(ends[row + 1])
            body(GraphObject(graph: graph, root: destinationRoot, row: row), sources[range])
        }
    }
}
