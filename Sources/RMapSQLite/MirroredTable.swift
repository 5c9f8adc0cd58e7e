import RMap

/// A table of a `json` store's scratch database, as the document holds it.
enum MirroredTable {
    /// A table of rows (an entity's, or one of rmap's own such as `_rmap_state`): its rows under
    /// its name, its bases under `_base`. The layout holds the columns the table has, the
    /// document's extra ones included.
    case rows(TableLayout)
    /// A join table: its links under its name.
    case links(JoinTableLayout)
    /// A table rmap makes with SQL of its own (``JSONDocumentTables/isOwn(_:)``): its rows
    /// under its name, typed by the columns' SQL types.
    case plain([ColumnLayout])

    /// The table with `column` added.
    func adding(_ column: ColumnLayout) -> MirroredTable {
        switch self {
        case .rows(var table):
            if table.columnIndex(column.name) == nil { table.columns.append(column) }
            return .rows(table)
        case .links(var join):
            if !join.columns.contains(where: { $0.name == column.name }) { join.columns.append(column) }
            return .links(join)
        case .plain:
            return self
        }
    }
}
