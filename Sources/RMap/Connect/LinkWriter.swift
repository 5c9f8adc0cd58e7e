/// Sets one relationship's links and keeps its inverse consistent, the way
/// Core Data maintains inverses for RestKit.
///
/// When relationship `R` (inverse `I`) links source `S` to destination `D`,
/// `D.I` comes to hold `S`: appended to a to-many (once), or replacing a
/// to-one's object. A to-one inverse replaced this way drops `D` from the
/// previous holder's `R`, so the last source to claim `D` keeps it. A link
/// that `S` no longer has is removed from `D.I`. Inverse updates are gathered
/// as row pairs and applied by ``flush()`` in one pass per destination, so
/// the cost stays linear in the links however many sources share a destination.
final class LinkWriter {
    private let name: String
    private let inverse: String?
    private var graph: ObjectGraph?
    private var sourceRoot = 0
    private var destinationRoot = 0
    /// (destination row, source row) of every link the sources now have, in link order.
    private var additions: [(destination: Int32, source: Int32)] = []
    /// (destination row, source row) of every link the sources lost.
    private var removals: [(destination: Int32, source: Int32)] = []

    /// A writer for the relationship `relationship`, which about `sources` objects will be linked through.
    init(_ relationship: RelationshipMapping, sources: Int) {
        name = relationship.name
        inverse = relationship.inverse
        if inverse != nil { additions.reserveCapacity(sources) }
    }

    /// Sets `source`'s relationship at `position` to `destinations` and records the inverse changes.
    func link(_ source: GraphObject, at position: Int, to destinations: [GraphObject]) {
        guard inverse != nil else {
            source.setRelated(at: position, to: destinations)
            return
        }
        let previous = source.related(at: position)
        source.setRelated(at: position, to: destinations)
        if graph == nil {
            graph = source.graph
            sourceRoot = source.root
            destinationRoot = source.graph.slot(of: source.type, relationship: position).destination
        }
        let row = Int32(source.row)
        for old in previous where !destinations.contains(old) { removals.append((Int32(old.row), row)) }
        for destination in destinations { additions.append((Int32(destination.row), row)) }
    }

    /// Applies the recorded inverse changes.
    func flush() {
        guard let inverse, let graph else { return }
        for (row, sources) in Dictionary(grouping: removals, by: \.destination) {
            let destination = GraphObject(graph: graph, root: destinationRoot, row: Int(row))
            guard let position = destination.type.relationshipIndex(inverse) else { continue }
            let lost = Set(sources.map { Int($0.source) })
            destination.setRelated(
                at: position, to: destination.related(at: position).filter { !lost.contains($0.row) })
        }
        var dropped: [Int: Set<Int>] = [:]
        forEachDestination { destination, sources in
            guard let position = destination.type.relationshipIndex(inverse), let winner = sources.last else { return }
            let holders = sources.map { GraphObject(graph: graph, root: sourceRoot, row: Int($0)) }
            switch destination.type.mapping.relationships[position].kind {
            case .toMany:
                let current = destination.related(at: position)
                var present = Set(current)
                destination.setRelated(at: position, to: current + holders.filter { present.insert($0).inserted })
            case .toOne:
                for loser in destination.related(at: position) + holders where loser.row != Int(winner) {
                    dropped[loser.row, default: []].insert(destination.row)
                }
                destination.setRelated(at: position, to: [holders[holders.count - 1]])
            }
        }
        for (row, destinations) in dropped {
            let holder = GraphObject(graph: graph, root: sourceRoot, row: row)
            guard let position = holder.type.relationshipIndex(name) else { continue }
            holder.setRelated(at: position, to: holder.related(at: position).filter { !destinations.contains($0.row) })
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
