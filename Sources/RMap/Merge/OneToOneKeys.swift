/// The SQL that compares a one-to-one's keys (``OneToOneHolder``): the source table's key
/// attributes with the destination table's, as connecting compares them.
///
/// ```swift
/// let keys = OneToOneKeys(holder, store: layout, dialect: engine.dialect)
/// keys.namesDestination("t")   // EXISTS (SELECT 1 FROM "desks" AS d WHERE t."desk_id" = d."id")
/// ```
struct OneToOneKeys {
    let dialect: any SQLDialect.Type
    /// The source's table and the destination's.
    let source: TableLayout
    let destination: TableLayout
    /// The holder column, in ``source``.
    let holder: ColumnLayout
    /// The compared columns: the source table's (and its position) and the destination table's.
    let columns: [(source: ColumnLayout, sourcePosition: Int, destination: ColumnLayout)]

    init(_ holder: OneToOneHolder, store: StoreLayout, dialect: any SQLDialect.Type) {
        self.dialect = dialect
        self.holder = holder.column
        source = store.table(of: holder.source)
        destination = store.table(of: holder.destination)
        let sourceColumns = store.bindings[holder.source.index].attributeColumns
        let destinationColumns = store.bindings[holder.destination.index].attributeColumns
        columns = holder.pairs.map { [source, destination] pair in
            let position = sourceColumns[pair.source]
            return (source.columns[position], position, destination.columns[destinationColumns[pair.destination]])
        }
    }

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The keys of the source row `alias`, comparable with the destination's (as text when the
    /// two attributes' types differ: `"7"` and `7` are one key, as connecting compares them).
    func sourceKeys(_ alias: String) -> [String] {
        columns.map { key("\(alias).\(q($0.source.name))", $0.source.type, other: $0.destination.type) }
    }

    private func key(_ column: String, _ type: AttributeType, other: AttributeType) -> String {
        let key = dialect.keyExpression(column, type: type)
        return type == other ? key : "CAST(\(key) AS TEXT)"
    }

    /// True when the source row `alias` names a destination the store has.
    func namesDestination(_ alias: String) -> String {
        let destinationKeys = columns.map {
            key("d.\(q($0.destination.name))", $0.destination.type, other: $0.source.type)
        }
        let same = zip(sourceKeys(alias), destinationKeys).map { "\($0) = \($1)" }.joined(separator: " AND ")
        return "EXISTS (SELECT 1 FROM \(q(destination.name)) AS d WHERE \(same))"
    }

    /// True when the source row `alias` has a null key or one that names no destination.
    func claimsNothing(_ alias: String) -> String {
        let nameless = sourceKeys(alias).map { "\($0) IS NULL" }.joined(separator: " OR ")
        return "(\(nameless) OR NOT \(namesDestination(alias)))"
    }
}
