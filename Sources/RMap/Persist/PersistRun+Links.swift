/// The links of a write (join-table rows): those of tables that held nothing, a batch at a
/// time as rows are written, then the others, compared with what the store holds.
extension PersistRun {
    /// Replaces the links of every object with a join whose stored links differ from the
    /// graph's: first those of tables that held nothing (``writeFreshLinks(objects:)``, which
    /// may have begun between batches of rows), then the others a batch at a time and in two
    /// passes: first every such source's stored links are removed, then the graph's links are
    /// added. Batches keep memory bounded; the passes keep a backend from seeing links of this
    /// write as stored ones.
    mutating func writeLinks() throws {
        while try writeFreshLinks(objects: PersistWriter.batchSize) {}
        let (kept, settled) = try keptLinks()
        // An unchanged re-run: every source's stored links are the graph's, nothing to walk again.
        guard !settled else { return }
        let roots = graph.schema.roots.filter { hasLinks($0) && !freshLinks.takes($0) }
        for root in roots { try removeStoredLinks(of: fetchedObjects(root), keeping: kept) }
        var identities = DestinationIdentities(graph: graph)
        for root in roots { try addLinks(of: fetchedObjects(root), keeping: kept, identities: &identities) }
    }

    /// The sources (graph rows), by join table, whose stored links are already the graph's
    /// (``StoreBackend/holdsLinks(_:sources:links:)``), and whether that is every source.
    private func keptLinks() throws -> (kept: [Set<Int>], settled: Bool) {
        var kept = Array(repeating: Set<Int>(), count: layout.joinTables.count)
        var settled = true
        var identities = DestinationIdentities(graph: graph)
        var batches = Array(
            repeating: [(row: Int, source: [Value], links: [[Value]])](), count: layout.joinTables.count)
        func check(_ join: Int) throws {
            let batch = batches[join]
            let holds = try backend.holdsLinks(
                layout.joinTables[join], sources: batch.map(\.source), links: batch.map(\.links))
            for (entry, same) in zip(batch, holds) {
                if same { kept[join].insert(entry.row) } else { settled = false }
            }
            batches[join].removeAll(keepingCapacity: true)
        }
        try forEachLinkSource { object, identity, relationship, join in
            let links = links(of: object, identity, relationship: relationship, join: join, identities: &identities)
            batches[join].append((object.row, identity.values, links))
            if batches[join].count >= PersistWriter.batchSize { try check(join) }
        }
        for join in layout.joinTables.indices where !batches[join].isEmpty { try check(join) }
        return (kept, settled)
    }

    /// The join rows of an object's relationship: its identity, a destination's, and its place when ordered.
    private func links(
        of object: GraphObject, _ identity: IdentityKey, relationship: Int, join: Int,
        identities: inout DestinationIdentities
    ) -> [[Value]] {
        let ordered = layout.joinTables[join].ordered
        var links: [[Value]] = []
        for (position, destination) in object.related(at: relationship).enumerated() {
            var link = identity.values
            guard identities.append(destination, to: &link) else { continue }
            if ordered { link.append(.int(Int64(position))) }
            links.append(link)
        }
        return links
    }

    /// Calls `body` for each object, identity, relationship and join table whose links this write
    /// sets in a table that held something (those of the others are ``writeFreshLinks(objects:)``'s).
    private func forEachLinkSource(
        _ body: (GraphObject, IdentityKey, _ relationship: Int, _ join: Int) throws -> Void
    ) throws {
        for root in graph.schema.roots where hasLinks(root) && !freshLinks.takes(root) {
            for object in fetchedObjects(root) { try forEachJoin(of: object) { try body(object, $0, $1, $2) } }
        }
    }

    /// Calls `body` with the object's identity and each relationship and join table whose links
    /// this write sets: none for a tombstone or an incomplete identity, and none for a join
    /// connected by keys of which the payload carried none (the stored links stay).
    private func forEachJoin(
        of object: GraphObject, _ body: (IdentityKey, _ relationship: Int, _ join: Int) throws -> Void
    ) throws {
        guard !isTombstone(object) else { return }
        let binding = layout.bindings[object.type.index]
        guard !binding.joins.isEmpty else { return }
        let identity = object.identity
        guard !identity.isIncomplete else { return }
        for (relationship, join, connecting) in binding.joins {
            if !connecting.isEmpty, connecting.allSatisfy({ object.value(at: $0) == nil }) { continue }
            try body(identity, relationship, join)
        }
    }

    /// Whether an entity stored in the root's table has a relationship kept in a join table.
    private func hasLinks(_ root: EntityType) -> Bool {
        graph.schema.family(of: root).contains { !layout.bindings[$0.index].joins.isEmpty }
    }

    // MARK: - Links of tables that held nothing

    /// Writes the links of `objects` more objects of the tables that held nothing at the write's
    /// start; false once all are written. Their sources have no stored links to keep: before a
    /// root's first links, one walk removes whatever links the store holds of its sources (all of
    /// them first, as ``writeLinks()``'s first pass: a removal after links of this write would
    /// search them, without an index while PostgreSQL loads a new join table).
    ///
    /// Between batches of rows once connecting is over (``PersistPhases``), this builds the
    /// links while the engine writes rows, instead of on one core after the last row (the
    /// flat benchmark's last 0.6 s).
    mutating func writeFreshLinks(objects: Int) throws -> Bool {
        if freshLinks.roots == nil { freshLinks.roots = try freshRootsWithLinks() }
        guard let roots = freshLinks.roots, freshLinks.root < roots.count else { return false }
        let root = roots[freshLinks.root]
        let order = rowOrder(of: root)
        if freshLinks.position == 0 { try removeStoredLinks(of: fetchedObjects(root)) }
        let end = min(order.count, freshLinks.position + objects)
        let batch = order[freshLinks.position..<end].lazy.map { [graph] in
            GraphObject(graph: graph, root: root.index, row: Int($0))
        }.filter { [graph] in !graph.isStored($0) }
        // Taken out for the walk: changed through `self`, each link would copy its arrays.
        var identities = freshLinks.takeIdentities()
        defer { freshLinks.identities = identities }
        try addLinks(of: batch, identities: &identities, flushingAt: .max)
        freshLinks.position = end
        if end == order.count { freshLinks.nextRoot() }
        return true
    }

    /// Removes the stored links of these sources, a batch at a time (a `union` join keeps them,
    /// and so does a source `kept` for its join, by graph row).
    private func removeStoredLinks(of objects: some Sequence<GraphObject>, keeping kept: [Set<Int>] = []) throws {
        var sources = Array(repeating: [[Value]](), count: layout.joinTables.count)
        func flush(_ join: Int) throws {
            try backend.replaceLinks(layout.joinTables[join], sources: sources[join], links: [])
            sources[join].removeAll(keepingCapacity: true)
        }
        for object in objects {
            try forEachJoin(of: object) { identity, _, join in
                guard !layout.joinTables[join].union, kept.isEmpty || !kept[join].contains(object.row) else { return }
                sources[join].append(identity.values)
                if sources[join].count >= PersistWriter.batchSize { try flush(join) }
            }
        }
        for join in layout.joinTables.indices where !sources[join].isEmpty { try flush(join) }
    }

    /// Adds the links of these objects (but those of a source `kept` for its join), sending a join
    /// table's links to the store once `flushingAt` of them are gathered, and the rest at the end.
    ///
    /// ``writeFreshLinks(objects:)`` sends each batch of objects' links in one call a join table:
    /// PostgreSQL copies links straight into a new join table only in calls of at least
    /// `PostgresBackend.copyThreshold` links, and a smaller call, such as the remainder of a batch
    /// sent in parts, makes it merge the rest of the load through staging.
    private func addLinks(
        of objects: some Sequence<GraphObject>, keeping kept: [Set<Int>] = [],
        identities: inout DestinationIdentities, flushingAt limit: Int = PersistWriter.batchSize
    ) throws {
        var links = Array(repeating: [[Value]](), count: layout.joinTables.count)
        func flush(_ join: Int) throws {
            try backend.replaceLinks(layout.joinTables[join], sources: [], links: links[join])
            links[join].removeAll(keepingCapacity: true)
        }
        for object in objects {
            try forEachJoin(of: object) { identity, relationship, join in
                guard kept.isEmpty || !kept[join].contains(object.row) else { return }
                links[join] += self.links(
                    of: object, identity, relationship: relationship, join: join, identities: &identities)
                if links[join].count >= limit { try flush(join) }
            }
        }
        for join in layout.joinTables.indices where !links[join].isEmpty { try flush(join) }
    }

    /// The roots with links whose table held nothing at the write's start: asked of the store
    /// for those not written yet (which hold nothing of this write either).
    private mutating func freshRootsWithLinks() throws -> [EntityType] {
        try graph.schema.roots.filter { root in
            guard hasLinks(root) else { return false }
            if writtenRoots.contains(root.index) { return freshTables.contains(layout.bindings[root.index].table) }
            return try backend.isEmpty(layout.table(of: root))
        }
    }
}

/// Where ``PersistRun/writeFreshLinks(objects:)`` has got to.
struct FreshLinkCursor {
    /// The roots with links whose table held nothing, in schema order; `nil` until the first batch.
    var roots: [EntityType]?
    /// The root being written (a position in `roots`), and the next object in its row order.
    private(set) var root = 0
    var position = 0
    /// The destinations' identities read so far.
    var identities: DestinationIdentities

    init(graph: ObjectGraph) {
        identities = DestinationIdentities(graph: graph)
    }

    /// Whether the cursor writes the links of `root` (known once it has begun).
    func takes(_ root: EntityType) -> Bool {
        roots?.contains { $0.index == root.index } ?? false
    }

    /// The identities read so far, leaving none until they are put back.
    mutating func takeIdentities() -> DestinationIdentities {
        let taken = identities
        identities = DestinationIdentities(graph: identities.graph)
        return taken
    }

    /// Moves on to the next root's first object.
    mutating func nextRoot() {
        root += 1
        position = 0
    }
}

/// The identities of the destinations of links, read once a destination: a person in nine
/// teams is decoded from the packed values once, not nine times (decoding was half of the time
/// it took to make 900,000 links).
struct DestinationIdentities {
    let graph: ObjectGraph
    /// By root and row, a lone identity's value (`.null`: none); `nil` until read.
    private var values: [[Value?]]

    init(graph: ObjectGraph) {
        self.graph = graph
        values = Array(repeating: [], count: graph.schema.types.count)
    }

    /// Appends the destination's identity values to `link`; false when one is missing or null.
    mutating func append(_ destination: GraphObject, to link: inout [Value]) -> Bool {
        guard destination.type.identityIndices.count == 1 else { return destination.appendIdentity(to: &link) }
        if values[destination.root].isEmpty {
            values[destination.root] = Array(repeating: nil, count: graph.table(destination.root).rowCount)
        }
        let value: Value
        if let known = values[destination.root][destination.row] {
            value = known
        } else {
            value = destination.value(at: destination.type.identityIndices[0]) ?? .null
            values[destination.root][destination.row] = value
        }
        guard !value.isNull else { return false }
        link.append(value)
        return true
    }
}
