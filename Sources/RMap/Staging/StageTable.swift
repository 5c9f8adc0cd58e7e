/// The staging tables of one store table (a root entity's): where the run's mapped records of
/// that table wait, in the store's engine, to be connected and merged (docs/architecture.md,
/// "Data flow").
///
/// - `_rmap_stage_<n>` holds one row per record occurrence, in arrival order: the record's
///   place (`_seq`, the top-level record's `_top`, the payload `_origin`, the record index
///   `_record`, the nested record's `_path`), its entity (`_entity`, and `_typed` when the
///   record said its type), a presence mask (`_m0`, ...: one bit per ``slots`` member, so that
///   a missing key never overwrites and `null` does), the table's columns, the identity's keys
///   in their domains (`_k0`, ...) and the keys of the columns that connections compare
///   (``connectionKeys``).
/// - `_rmap_rows_<n>` holds one row per object: the occurrences of one identity merged in
///   arrival order (the last record wins, column by column), with the union of their masks.
///
/// A class: every staged row reads its table's layout, which a copy would retain field by field.
final class StageTable: Sendable {
    /// The store table.
    let table: TableLayout
    /// The table's position in ``StoreLayout/tables``: the staging tables' number.
    let position: Int
    /// The nested relationships of the table's entities whose payload key a record may carry
    /// (by name): each has a presence slot after the columns', which says that the record named
    /// the relationship's whole set (a list, `[]` or `null`).
    let assignedRelationships: [String]
    /// The columns whose keys connections compare, each in the domain of the attribute it is
    /// compared with: `_c<column>_<domain>`.
    let connectionKeys: [ConnectionKeyColumn]
    /// The slots whose last occurrence the merged row remembers (`_at<slot>`): array foreign keys
    /// (their members are staged by occurrence) and nested relationships kept in join tables.
    let trackedSlots: [Int]

    /// Mask columns of 62 bits each (an engine's integers are signed 64-bit).
    let maskCount: Int
    /// The identity's key columns, in identity order: `_k0`, `_k1`, ...
    let keyColumns: [ColumnLayout]
    /// The mask columns: `_m0`, `_m1`, ...
    let maskColumns: [ColumnLayout]
    /// Every column of the occurrences' table, in the order a staged row holds its values.
    let stageColumns: [ColumnLayout]

    /// The staging layout of `table`; the column lists are made once here, as every staged row reads them.
    init(
        table: TableLayout, position: Int, assignedRelationships: [String], connectionKeys: [ConnectionKeyColumn],
        trackedSlots: [Int]
    ) {
        self.table = table
        self.position = position
        self.assignedRelationships = assignedRelationships
        self.connectionKeys = connectionKeys
        self.trackedSlots = trackedSlots
        let slots = table.columns.count + assignedRelationships.count
        maskCount = max(1, (slots + StageTable.bitsPerMask - 1) / StageTable.bitsPerMask)
        keyColumns = table.identity.enumerated().map { offset, column in
            ColumnLayout(name: "_k\(offset)", type: KeyDomain(table.columns[column].type).columnType)
        }
        maskColumns = (0..<maskCount).map { ColumnLayout(name: "_m\($0)", type: .int) }
        stageColumns = Self.occurrenceColumns + maskColumns + table.columns + keyColumns + connectionKeys.map(\.layout)
    }

    /// The occurrences' table.
    var stageName: String { "_rmap_stage_\(position)" }
    /// The objects' table.
    var rowsName: String { "_rmap_rows_\(position)" }

    /// Presence slots: the table's columns, then ``assignedRelationships``.
    var slotCount: Int { table.columns.count + assignedRelationships.count }
    static let bitsPerMask = 62

    /// The slot of the nested relationship `name`'s assignment.
    func assignedSlot(_ name: String) -> Int? {
        assignedRelationships.firstIndex(of: name).map { table.columns.count + $0 }
    }

    /// The mask column and bit of a slot.
    static func bit(of slot: Int) -> (mask: Int, value: Int64) {
        (slot / bitsPerMask, Int64(1) << Int64(slot % bitsPerMask))
    }

    /// The bits of `slots` in each mask column that holds one of them, in mask order: what a
    /// statement sets, clears or tests for those slots.
    ///
    /// ```swift
    /// StageTable.masks(of: [0, 3, 62])   // [(mask: 0, bits: 9), (mask: 1, bits: 1)]
    /// ```
    static func masks(of slots: some Sequence<Int>) -> [(mask: Int, bits: Int64)] {
        var masks: [Int: Int64] = [:]
        for slot in slots {
            let (mask, bit) = bit(of: slot)
            masks[mask, default: 0] |= bit
        }
        return masks.sorted { $0.key < $1.key }.map { (mask: $0.key, bits: $0.value) }
    }

    /// The columns every occurrence has before the table's own.
    static let occurrenceColumns: [ColumnLayout] = [
        ColumnLayout(name: "_seq", type: .int), ColumnLayout(name: "_top", type: .int),
        ColumnLayout(name: "_origin", type: .int), ColumnLayout(name: "_record", type: .int),
        ColumnLayout(name: "_entity", type: .int), ColumnLayout(name: "_typed", type: .int),
        ColumnLayout(name: "_path", type: .string),
    ]

    /// Where the table's own columns start in a staged row.
    var firstColumn: Int { Self.occurrenceColumns.count + maskCount }
    /// Where the identity's keys start in a staged row.
    var firstKey: Int { firstColumn + table.columns.count }
    /// Where the connection keys start in a staged row.
    var firstConnectionKey: Int { firstKey + table.identity.count }

    /// The connection key column of `column` in `domain`.
    func connectionKey(column: Int, domain: KeyDomain) -> ConnectionKeyColumn? {
        connectionKeys.first { $0.column == column && $0.domain == domain }
    }
}

/// A column of a stage table that holds the key of another column in one domain.
struct ConnectionKeyColumn: Sendable, Hashable {
    /// The table column whose values it keys.
    let column: Int
    /// The domain of the attribute they are compared with.
    let domain: KeyDomain

    /// `_c<column>_<domain>`.
    var name: String { "_c\(column)_\(domain)" }
    /// The column's layout.
    var layout: ColumnLayout { ColumnLayout(name: name, type: domain.columnType) }
}
