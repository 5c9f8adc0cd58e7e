/// The store-independent persist stage: writes a run's graph through a
/// ``StoreBackend`` in one transaction (MAPPING.md §5 and §6).
///
/// New objects are inserted (row and base are the payload's values; missing
/// keys stay null); stored objects are merged three-way per column against
/// their base (``ConflictPolicy``); foreign-key columns and join tables come
/// from the graph's relationships (an empty to-one keeps the stored foreign
/// key unless its payload said `null`, a to-many connected by foreign key whose
/// keys no payload carried keeps its links, as a missing key keeps a value, and
/// children a nested `replace` to-many no longer lists lose their foreign key,
/// see ``ReleasedChildren``); `orphans: delete` applies to entities the
/// request says were fetched completely. A policy of `fail` that meets
/// conflicts throws ``ConflictError`` after collecting all of them, and
/// nothing is written. A dry run does everything, then rolls back.
///
/// ```swift
/// let report = try PersistWriter(backend: backend).write(graph, request: WriteRequest())
/// ```
public struct PersistWriter {
    /// Objects per fetch and write batch.
    public static let batchSize = 2048

    private let backend: any StoreBackend

    /// Creates a writer over an engine's primitives.
    public init(backend: any StoreBackend) {
        self.backend = backend
    }

    /// Writes a graph in one transaction (upsert merged three-way against the base, links, orphans). The caller's thread builds batches while
    /// the engine writes the previous ones on another (``BackgroundBackend``), and waits for it:
    /// async code uses ``beginWrite(_:request:)``, whose phases run on threads of their own.
    ///
    /// - Throws: ``ConflictError``, or the backend's errors (the transaction is rolled back).
    /// - Complexity: O(objects + links), in batches of ``batchSize``.
    public func write(_ graph: ObjectGraph, request: WriteRequest) throws -> WriteReport {
        var phases = try PersistPhases(
            backend: BackgroundBackend(backend), graph: graph, request: request, connected: Locked(true))
        return try phases.rollingBack { try $0.finish() }
    }

    /// Begins writing a graph in phases (``StoreWrite``).
    ///
    /// The tables whose rows connecting leaves as they are (no foreign-key column of a
    /// relationship that a connection sets) are written by ``StoreWrite/writeSettled()``;
    /// the rest, and the join tables, by ``StoreWrite/finish()``. Each phase runs on a
    /// thread of its own, which builds batches as ``write(_:request:)`` does.
    ///
    /// - Throws: the backend's errors (the transaction is rolled back).
    public func beginWrite(_ graph: ObjectGraph, request: WriteRequest) async throws -> any StoreWrite {
        let parts = Confined((backend: backend, graph: graph))
        let connected = Locked(false)
        let phases = try await DedicatedThread.run {
            Confined(
                try PersistPhases(
                    backend: BackgroundBackend(parts.value.backend), graph: parts.value.graph, request: request,
                    connected: connected))
        }.get()
        return PersistWrite(phases: phases, connectedFlag: connected)
    }
}

/// A ``PersistWriter`` write begun by ``PersistWriter/beginWrite(_:request:)``: each phase runs
/// on a ``DedicatedThread``, one after the other.
private struct PersistWrite: StoreWrite {
    let phases: Confined<PersistPhases>
    /// Read by the phase writing rows: set, it writes links between batches of rows.
    let connectedFlag: Locked<Bool>

    func connected() {
        connectedFlag.withLock { $0 = true }
    }

    func writeSettled() async throws {
        try await DedicatedThread.run { [phases] in try phases.value.rollingBack { try $0.writeSettled() } }.get()
    }

    func finish() async throws -> WriteReport {
        try await DedicatedThread.run { [phases] in try phases.value.rollingBack { try $0.finish() } }.get()
    }
}

/// The phases of one write (``StoreWrite``).
private struct PersistPhases {
    let backend: BackgroundBackend
    let request: WriteRequest
    var run: PersistRun
    /// By root, whether connecting leaves its table's rows as they are.
    let settled: [Bool]
    var settledWritten = false

    /// Begins the transaction and brings the schema up to date.
    init(backend: BackgroundBackend, graph: ObjectGraph, request: WriteRequest, connected: Locked<Bool>) throws {
        let layout = StoreLayout(schema: graph.schema)
        self.backend = backend
        self.request = request
        run = PersistRun(backend: backend, layout: layout, graph: graph, connected: connected)
        settled = layout.settledBeforeConnecting(graph.schema.roots, in: graph.schema)
        try backend.begin()
        do {
            try backend.ensureSchema(layout)
        } catch {
            backend.rollback()
            throw error
        }
    }

    /// Runs a phase, rolling the transaction back when it throws.
    mutating func rollingBack<T>(_ phase: (inout Self) throws -> T) throws -> T {
        do {
            return try phase(&self)
        } catch {
            backend.rollback()
            throw error
        }
    }

    /// Writes the tables that connecting leaves as they are (which read values and settled links only).
    mutating func writeSettled() throws {
        guard !settledWritten else { return }
        settledWritten = true
        for (root, early) in zip(run.graph.schema.roots, settled) where early { try run.writeTable(root) }
        try backend.drain()
    }

    /// Writes the other tables, the links, deletions and run state, and commits (a dry run rolls back).
    mutating func finish() throws -> WriteReport {
        try writeSettled()
        for (root, early) in zip(run.graph.schema.roots, settled) where !early { try run.writeTable(root) }
        try run.releaseChildren()
        if !run.conflicts.isEmpty { throw ConflictError(conflicts: run.conflicts) }
        try run.writeLinks()
        run.countUnchanged(request.unchangedIdentities)
        try run.deleteOrphans(complete: request.completeEntities, unchanged: request.unchangedIdentities)
        try RunStateTable.write(request.runState, to: backend)
        if request.dryRun { backend.rollback() } else { try backend.commit() }
        run.releaseWriteState()
        return WriteReport(entities: run.report)
    }
}

/// The state of one write.
struct PersistRun {
    let backend: any StoreBackend
    let layout: StoreLayout
    let graph: ObjectGraph
    /// Counts by entity position.
    var counts: [EntityWriteCounts]
    var conflicts: [ConflictError.Conflict] = []
    /// Children's places in `ordered` nested to-manys kept by their foreign key.
    let positions: ListPositions
    /// Children that `replace` nested to-manys no longer list.
    let released: ReleasedChildren
    /// The tables (positions in ``StoreLayout/tables``) that held nothing when they were written:
    /// no stored link has their objects as source.
    var freshTables = Set<Int>()
    /// The rows of each root in the order written (``IdentityOrder``, sorted once a root): the
    /// links are written in it too.
    private var orders: [Int: [Int32]] = [:]
    /// The roots whose tables ``writeTable(_:)`` wrote.
    var writtenRoots = Set<Int>()
    /// True once connecting is over: links may be written between batches of rows.
    let connected: Locked<Bool>
    /// The links of tables that held nothing, written so far.
    var freshLinks: FreshLinkCursor

    init(backend: any StoreBackend, layout: StoreLayout, graph: ObjectGraph, connected: Locked<Bool>) {
        self.backend = backend
        self.layout = layout
        self.graph = graph
        self.connected = connected
        counts = Array(repeating: EntityWriteCounts(), count: graph.schema.types.count)
        positions = ListPositions(graph: graph, layout: layout)
        released = ReleasedChildren(graph: graph, layout: layout)
        freshLinks = FreshLinkCursor(graph: graph)
    }

    /// The counts by entity name.
    var report: [String: EntityWriteCounts] {
        Dictionary(graph.schema.types.map { ($0.name, counts[$0.index]) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - Rows

    /// The objects of a root's table that the run fetched, in order of identity (the order
    /// ``writeTable(_:)`` wrote): stored objects that connections reached
    /// (``ObjectGraph/isStored(_:)``) keep their rows and links as stored.
    func fetchedObjects(_ root: EntityType) -> some Sequence<GraphObject> {
        let order = orders[root.index] ?? IdentityOrder.rows(of: root, in: graph)
        return order.lazy.map { [graph] in GraphObject(graph: graph, root: root.index, row: Int($0)) }
            .filter { [graph] in !graph.isStored($0) }
    }

    /// Lets go of what only writing needed (the row orders, the destinations' identities read for
    /// links): the write's owner may hold it past the commit (``Pipeline`` does, until the run
    /// returns, while it writes the remembered payloads).
    mutating func releaseWriteState() {
        orders = [:]
        freshLinks = FreshLinkCursor(graph: graph)
    }

    /// The root's rows in the order they are written, sorted once.
    mutating func rowOrder(of root: EntityType) -> [Int32] {
        if let order = orders[root.index] { return order }
        let order = IdentityOrder.rows(of: root, in: graph)
        orders[root.index] = order
        return order
    }

    /// Writes a root's table; once connecting is over, a batch of links of a table that held
    /// nothing after each batch of rows (``writeFreshLinks(objects:)``).
    mutating func writeTable(_ root: EntityType) throws {
        let table = layout.table(of: root)
        let fresh = try backend.isEmpty(table)
        if fresh { freshTables.insert(layout.bindings[root.index].table) }
        writtenRoots.insert(root.index)
        _ = rowOrder(of: root)
        var chunk: [GraphObject] = []
        var writes = ChunkWrites()
        var tombstones: [[Value]] = []
        for object in fetchedObjects(root) {
            if isTombstone(object) {
                tombstones.append(object.identity.values)
                continue
            }
            chunk.append(object)
            guard chunk.count == PersistWriter.batchSize else { continue }
            try writeChunk(chunk, table, fresh: fresh, writes: &writes)
            chunk.removeAll(keepingCapacity: true)
            if connected.withLock({ $0 }) { _ = try writeFreshLinks(objects: PersistWriter.batchSize) }
        }
        if !chunk.isEmpty { try writeChunk(chunk, table, fresh: fresh, writes: &writes) }
        if !fresh, !tombstones.isEmpty { try deleteStored(tombstones, table, root: root) }
    }

    /// True when the object's record matches its entity's `delete_when` (a tombstone).
    func isTombstone(_ object: GraphObject) -> Bool {
        guard let tombstone = object.type.mapping.deletion.tombstone, !object.identity.isIncomplete else {
            return false
        }
        return tombstone.matches(object)
    }

    /// Deletes the stored objects of these identities that the store holds, with their links,
    /// counted as deleted by entity (the `type` column's, else `root`).
    private mutating func deleteStored(_ identities: [[Value]], _ table: TableLayout, root: EntityType) throws {
        var entityByType: [Value: Int] = [:]
        for member in graph.schema.family(of: root) {
            entityByType[.string(layout.bindings[member.index].typeValue)] = member.index
        }
        var deleted: [[Value]] = []
        var start = 0
        while start < identities.count {
            let batch = Array(identities[start..<min(start + PersistWriter.batchSize, identities.count)])
            start += batch.count
            let stored = try backend.fetch(table, identities: batch)
            for identity in batch {
                guard let state = stored[IdentityKey(identity)] else { continue }
                deleted.append(identity)
                let values = state.row ?? state.base
                let type = table.discriminator.flatMap { column in values.flatMap { entityByType[$0[column]] } }
                counts[type ?? root.index].deleted += 1
            }
        }
        try delete(deleted, table)
    }

    /// Deletes rows and bases by identity, and the links they are the source of.
    private func delete(_ identities: [[Value]], _ table: TableLayout) throws {
        guard !identities.isEmpty else { return }
        try backend.delete(table, identities: identities)
        for join in layout.joinTables(of: table) {
            try backend.replaceLinks(join, sources: identities, links: [])
        }
    }

    private mutating func writeChunk(
        _ chunk: [GraphObject], _ table: TableLayout, fresh: Bool, writes: inout ChunkWrites
    ) throws {
        if fresh {
            // Nothing is stored: every object is inserted, its row its base; nothing to look up or merge.
            for object in chunk {
                writes.inserted.append(freshRow(object, table))
                counts[object.type.index].inserted += 1
            }
        } else {
            try mergeChunk(chunk, table, writes: &writes)
        }
        if conflicts.isEmpty { try writes.write(table, to: backend) }
        writes.removeAll()
    }

    /// Merges a chunk of objects with what the store holds for them.
    private mutating func mergeChunk(_ chunk: [GraphObject], _ table: TableLayout, writes: inout ChunkWrites) throws {
        let incoming = chunk.map { incomingRow($0, table) }
        let identities = incoming.map { identity(of: $0, table) }
        let settled = try matchingBase(chunk, incoming, identities, table)
        let stored = try backend.fetch(
            table, identities: chunk.indices.compactMap { settled[$0] ? nil : identities[$0] })
        for (offset, object) in chunk.enumerated() where !settled[offset] {
            var row = incoming[offset]
            guard let identity = identities[offset], let state = stored[IdentityKey(identity)] else {
                writes.inserted.append(row.map { $0 ?? .null })
                counts[object.type.index].inserted += 1
                continue
            }
            released.release(
                &row, base: state.base, identity: identity, table: layout.bindings[object.type.index].table)
            merge(row, into: state, type: object.type, identity: identity, table: table, writes: &writes)
        }
    }

    /// Which objects of a chunk equal their base wherever their payload has a key (and lose no
    /// foreign key to ``ReleasedChildren``): their merge would change nothing, so they are
    /// counted unchanged here, unread (an unchanged re-run decodes nothing it stored).
    private mutating func matchingBase(
        _ chunk: [GraphObject], _ incoming: [[Value?]], _ identities: [[Value]?], _ table: TableLayout
    ) throws -> [Bool] {
        var settled = [Bool](repeating: false, count: chunk.count)
        let candidates = chunk.indices.filter { offset in
            guard let identity = identities[offset] else { return false }
            let position = layout.bindings[chunk[offset].type.index].table
            return !released.mayRelease(incoming[offset], identity: identity, table: position)
        }
        guard !candidates.isEmpty else { return settled }
        let matches = try backend.matchesBase(table, candidates.map { incoming[$0] })
        for (offset, matching) in zip(candidates, matches) where matching {
            settled[offset] = true
            counts[chunk[offset].type.index].unchanged += 1
        }
        return settled
    }

    private mutating func merge(
        _ row: [Value?], into state: StoredState, type: EntityType, identity: [Value], table: TableLayout,
        writes: inout ChunkWrites
    ) {
        var found: [ThreeWayMerge.Conflict] = []
        let result = ThreeWayMerge(policy: type.mapping.onConflict).merge(row, into: state, conflicts: &found)
        for conflict in found {
            conflicts.append(
                ConflictError.Conflict(
                    entity: type.name, identity: IdentityKey(identity).description,
                    attribute: columnName(table, conflict.column), base: ValueText.display(conflict.base),
                    local: conflict.local.map(ValueText.display) ?? "(deleted)",
                    remote: ValueText.display(conflict.remote)))
        }
        if result.rowChanged, let merged = result.row { writes.rows.append(merged) }
        if result.baseChanged {
            // A row that is the server's state again needs no base of its own.
            if result.row == result.base {
                writes.settled.append(result.base)
            } else {
                writes.bases.append(result.base)
            }
        }
        if result.rowChanged {
            counts[type.index].updated += 1
        } else {
            counts[type.index].unchanged += 1
        }
    }

    /// Clears the foreign key of stored children outside the graph that their parent's payload no
    /// longer lists (``ReleasedChildren``; those in the graph were released as their rows merged),
    /// merged three-way like any remote change.
    mutating func releaseChildren() throws {
        for group in released.groups {
            let table = layout.tables[group.table]
            let released = try releasedIdentities(of: group, table)
            guard !released.isEmpty else { continue }
            if group.entity.mapping.deletion.missingFromParent {
                try deleteStored(released, table, root: graph.schema.root(of: group.entity))
                continue
            }
            var incoming = [Value?](repeating: nil, count: table.columns.count)
            for column in group.columns { incoming[column] = .null }
            let stored = try backend.fetch(table, identities: released)
            var writes = ChunkWrites()
            for identity in released {
                guard let state = stored[IdentityKey(identity)] else { continue }
                merge(incoming, into: state, type: group.entity, identity: identity, table: table, writes: &writes)
            }
            guard conflicts.isEmpty else { continue }
            try writes.write(table, to: backend)
        }
    }

    /// The identities of a group's stored children whose base points at one of its parents and
    /// which no parent lists. A table that held nothing when it was written holds the rows this
    /// write inserted: its children are the graph's, and only those no parent lists have their
    /// row made again (a nested file's 1.3M children took 13 s and 200 MB to read back); any
    /// other table's bases are read from the store.
    private func releasedIdentities(of group: ReleasedChildren.Group, _ table: TableLayout) throws -> [[Value]] {
        var released: [[Value]] = []
        func check(_ base: [Value]) {
            guard group.isParent(group.columns.map { base[$0] }, in: graph) else { return }
            let identity = table.identityValues(of: base)
            if !group.lists(IdentityKey(identity), in: graph) { released.append(identity) }
        }
        guard freshTables.contains(group.table) else {
            for base in try backend.scanBase(table) { check(base) }
            return released
        }
        for object in fetchedObjects(graph.schema.root(of: group.entity))
        where !group.listed.contains(object.row) && !isTombstone(object) {
            check(freshRow(object, table))
        }
        return released
    }

    /// The row a graph object brings: `nil` where the payload had no key (or no related object).
    private func incomingRow(_ object: GraphObject, _ table: TableLayout) -> [Value?] {
        var row = [Value?](repeating: nil, count: table.columns.count)
        fill(object, table) { row[$0] = $1 }
        return row
    }

    /// The row a graph object brings to a table that holds nothing: `null` where the payload had
    /// no key, so the row is its base too (built in place, not mapped from ``incomingRow(_:_:)``'s).
    private func freshRow(_ object: GraphObject, _ table: TableLayout) -> [Value] {
        var row = [Value](repeating: .null, count: table.columns.count)
        fill(object, table) { row[$0] = $1 }
        return row
    }

    /// Calls `set` with each column the object brings a value for.
    private func fill(_ object: GraphObject, _ table: TableLayout, _ set: (Int, Value) -> Void) {
        let binding = layout.bindings[object.type.index]
        object.forEachValue { attribute, value in set(binding.attributeColumns[attribute], value) }
        if let discriminator = table.discriminator { set(discriminator, .string(binding.typeValue)) }
        for (relationship, columns) in binding.foreignKeys {
            guard let destination = object.relatedObject(at: relationship) else {
                // A payload that said `null` clears the stored link.
                if object.isAssigned(at: relationship) { for column in columns { set(column, .null) } }
                continue
            }
            let positions = destination.type.identityIndices
            guard !positions.isEmpty, positions.count == columns.count else { continue }
            if positions.count == 1 {
                // The usual lone identity, without an array of one.
                guard let value = destination.value(at: positions[0]), !value.isNull else { continue }
                set(columns[0], value)
                continue
            }
            let identity = positions.compactMap { destination.value(at: $0) }
            guard identity.count == positions.count, !identity.contains(where: \.isNull) else { continue }
            for (value, column) in zip(identity, columns) { set(column, value) }
        }
        for (relationship, column) in binding.positions {
            if let place = self.positions.place(of: object, relationship: relationship) {
                set(column, .int(Int64(place)))
            }
        }
    }

    private func identity(of row: [Value?], _ table: TableLayout) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(table.identity.count)
        for column in table.identity {
            guard let value = row[column], !value.isNull else { return nil }
            values.append(value)
        }
        return values.isEmpty ? nil : values
    }

    private func columnName(_ table: TableLayout, _ column: Int) -> String {
        switch table.roles[column] {
        case .attribute(let name), .foreignKey(let name), .position(let name): name
        case .discriminator: table.columns[column].name
        }
    }

    // MARK: - Orphans

    /// Counts the objects seen unchanged without being delivered (those the graph lacks).
    mutating func countUnchanged(_ unchanged: [String: [IdentityKey]]) {
        for (name, identities) in unchanged {
            guard let type = graph.schema.type(named: name) else { continue }
            let absent = Set(identities).filter { graph.object(root: type.rootIndex, identity: $0) == nil }
            counts[type.index].unchanged += absent.count
        }
    }

    mutating func deleteOrphans(complete: Set<String>, unchanged: [String: [IdentityKey]] = [:]) throws {
        for name in complete.sorted() {
            guard let type = graph.schema.type(named: name), type.mapping.orphans == .delete else { continue }
            let table = layout.table(of: type)
            var entityByType: [String: String] = [:]
            for member in graph.schema.family(of: type) {
                entityByType[layout.bindings[member.index].typeValue] = member.name
            }
            var fetched = Set(fetchedObjects(graph.schema.root(of: type)).map(\.identity))
            for member in graph.schema.family(of: type) { fetched.formUnion(unchanged[member.name] ?? []) }
            var seen = Set<IdentityKey>()
            var orphans: [[Value]] = []
            for (identity, typeValue) in try backend.identities(table) {
                let key = IdentityKey(identity)
                guard !key.isIncomplete, !fetched.contains(key), !seen.contains(key) else { continue }
                let entity: String
                if table.discriminator != nil {
                    guard let typeValue, let member = entityByType[typeValue] else { continue }
                    entity = member
                } else {
                    entity = type.name
                }
                seen.insert(key)
                orphans.append(identity)
                if let index = graph.schema.type(named: entity)?.index { counts[index].orphansDeleted += 1 }
            }
            try delete(orphans, table)
        }
    }
}

/// What a batch of merged objects writes to one table.
private struct ChunkWrites {
    /// Objects the store held nothing for.
    var inserted: [[Value]] = []
    /// Stored rows the merge changed.
    var rows: [[Value]] = []
    /// Bases the merge changed, of rows that differ from them.
    var bases: [[Value]] = []
    /// Bases the merge changed, of rows equal to them (``StoreBackend/settleBase(_:_:)``).
    var settled: [[Value]] = []

    func write(_ table: TableLayout, to backend: any StoreBackend) throws {
        if !inserted.isEmpty { try backend.insertFresh(table, inserted) }
        if !rows.isEmpty { try backend.upsertRows(table, rows) }
        if !bases.isEmpty { try backend.upsertBase(table, bases) }
        if !settled.isEmpty { try backend.settleBase(table, settled) }
    }

    mutating func removeAll() {
        inserted.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        bases.removeAll(keepingCapacity: true)
        settled.removeAll(keepingCapacity: true)
    }
}
