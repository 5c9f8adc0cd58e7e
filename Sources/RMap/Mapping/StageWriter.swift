/// Turns mapped records into staged rows (``StageBatch``) and hands full batches to the engine.
///
/// Each record, and each record nested in it, is one occurrence row of its table's stage
/// (``StageTable``): its values where the payload had a key (the mask says which), its identity
/// keyed in its domain, the keys of the columns connections compare, and its place (sequence,
/// top-level record, payload, record index, nested path). A nested record links to its parent
/// where the store keeps the link: the child's foreign-key columns, the parent's, or a row of
/// the nested links' table; the parent's mask notes that its payload named the relationship.
/// An array column that a connection compares stages a member row per element.
///
/// Not thread-safe: one writer belongs to the mapping task.
final class StageWriter {
    let layout: StageLayout
    private let send: (StageBatch) throws -> Void
    private var batch: StageBatch
    private var sequence = 0
    /// The payloads numbered so far, and the last one's name.
    private var origins = 0
    private var lastOrigin: (name: String, number: Int)?
    /// Rows a batch holds before it is sent.
    static let batchSize = 4096

    /// A writer for `layout` whose full batches go to `send` (which may block: back-pressure).
    init(layout: StageLayout, send: @escaping (StageBatch) throws -> Void) {
        self.layout = layout
        self.send = send
        batch = StageBatch(layout: layout)
    }

    /// How many occurrences were staged so far.
    var occurrences: Int { sequence }

    /// Stages a top-level record, its nested records with it.
    ///
    /// - Returns: the record's sequence number.
    @discardableResult
    func stage(_ record: PendingRecord, origin: String, index: Int) throws -> Int {
        let number = self.origin(origin)
        let seq = stage(record, origin: number, index: index, top: nil, parent: nil)
        if batch.count >= Self.batchSize { try flush() }
        return seq
    }

    /// Sends what is batched.
    func flush() throws {
        guard !batch.isEmpty else { return }
        let full = batch
        batch = StageBatch(layout: layout)
        try send(full)
    }

    // MARK: - Rows

    /// What a nested record's row takes from its parent: its foreign-key columns hold the
    /// parent's identity, and its place in an ordered list.
    private struct ParentLink {
        var columns: [Int]
        var identity: [Value]
        var position: (column: Int, place: Int)?
    }

    private func stage(_ record: PendingRecord, origin: Int, index: Int, top: Int?, parent: ParentLink?) -> Int {
        sequence += 1
        let seq = sequence
        let plan = record.plan
        let type = plan.type
        let binding = layout.store.bindings[type.index]
        let table = layout.tables[binding.table]
        var row = [Value](repeating: .null, count: table.stageColumns.count)
        row[0] = .int(Int64(seq))
        row[1] = .int(Int64(top ?? seq))
        row[2] = .int(Int64(origin))
        row[3] = .int(Int64(index))
        row[4] = .int(Int64(type.index))
        row[5] = .int(record.typed ? 1 : 0)
        if let path = record.path { row[6] = .string(path) }
        var masks = PresenceMasks(count: table.maskCount)
        func set(_ column: Int, _ value: Value) {
            row[table.firstColumn + column] = value
            masks.insert(column)
        }
        for (position, value) in record.values.enumerated() {
            if let value {
                set(binding.attributeColumns[position], value)
            } else if let fill = plan.attributes[position].missingFill {
                set(binding.attributeColumns[position], fill)
            }
        }
        for value in record.subEntityValues {
            set(layout.store.bindings[value.type].attributeColumns[value.attribute], value.value)
        }
        if let parent {
            for (column, value) in zip(parent.columns, parent.identity) { set(column, value) }
            if let position = parent.position { set(position.column, .int(Int64(position.place))) }
        }
        for (offset, value) in record.identity.values.enumerated() {
            let column = table.table.identity[offset]
            row[table.firstKey + offset] =
                CanonicalKey.value(value, in: KeyDomain(table.table.columns[column].type)) ?? .null
        }
        for (nestedIndex, records) in record.nested {
            let nested = plan.nested[nestedIndex]
            // A union's set is named only by `null`, which empties it; a list adds to it.
            if let slot = table.assignedSlot(nested.name), records == nil || nested.replaces { masks.insert(slot) }
            if let columns = binding.foreignKeys.first(where: { $0.relationship == nested.position })?.columns {
                // The parent holds the link: its foreign key is the (first) child's identity, or null.
                let child = records?.first?.identity.values ?? Array(repeating: .null, count: columns.count)
                for (column, value) in zip(columns, child) { set(column, value) }
            }
            stageNested(
                records ?? [], nested, parentSeq: seq, parent: record, origin: origin, index: index, top: top ?? seq)
        }
        for offset in 0..<table.maskCount { row[StageTable.occurrenceColumns.count + offset] = .int(masks[offset]) }
        for (offset, key) in table.connectionKeys.enumerated() {
            row[table.firstConnectionKey + offset] =
                CanonicalKey.value(row[table.firstColumn + key.column], in: key.domain) ?? .null
        }
        stageMembers(row, table: table, seq: seq)
        batch.add(row: row, table: binding.table)
        return seq
    }

    /// Stages a nested relationship's records, linked to their parent where the store keeps the link.
    private func stageNested(
        _ children: [PendingRecord], _ nested: NestedPlan, parentSeq: Int, parent: PendingRecord, origin: Int,
        index: Int, top: Int
    ) {
        let parentBinding = layout.store.bindings[parent.plan.type.index]
        let join = parentBinding.joins.first { $0.relationship == nested.position }?.join
        let links = join.flatMap { join in layout.nestedLinks.firstIndex { $0.join == join } }
        for (place, child) in children.enumerated() {
            var link: ParentLink?
            if let inverse = nested.inverse[child.plan.type.index] {
                let binding = layout.store.bindings[child.plan.type.index]
                if let columns = binding.foreignKeys.first(where: { $0.relationship == inverse.position })?.columns {
                    let position = binding.positions.first { $0.relationship == inverse.position }
                    link = ParentLink(
                        columns: columns, identity: parent.identity.values,
                        position: position.map { ($0.column, place) })
                }
            }
            _ = stage(child, origin: origin, index: index, top: top, parent: link)
            if let links {
                let ordered = layout.nestedLinks[links].layout.ordered
                let values: [Value] =
                    [.int(Int64(parentSeq))] + parent.identity.values + child.identity.values
                    + (ordered ? [.int(Int64(place))] : [])
                batch.add(link: values, table: links)
            }
        }
    }

    /// A member row per element of the occurrence's array columns that connections compare.
    private func stageMembers(_ row: [Value], table: StageTable, seq: Int) {
        for (position, members) in layout.members.enumerated() where members.table == table.position {
            guard case .array(let items) = row[table.firstColumn + members.column] else { continue }
            for (place, item) in items.enumerated() {
                batch.add(
                    member: [
                        .int(Int64(seq)), .int(Int64(place)), item,
                        CanonicalKey.value(item, in: members.domain) ?? .null,
                    ], table: position)
            }
        }
    }

    /// The number of a payload name: the last one's while the name is the same, a new one staged
    /// otherwise (payloads are mapped one at a time, so a name met again is a new delivery; the
    /// numbers of one name all lead to it, and the writer keeps no name it has left).
    private func origin(_ name: String) -> Int {
        if let last = lastOrigin, last.name == name { return last.number }
        let number = origins
        origins += 1
        batch.origins.append([.int(Int64(number)), .string(name)])
        lastOrigin = (name, number)
        return number
    }
}
