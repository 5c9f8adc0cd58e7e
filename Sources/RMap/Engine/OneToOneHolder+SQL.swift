extension OneToOneHolder {
    /// True on a row of alias `alias` (of the source's table) that holds its destination.
    static func holds(_ alias: String, _ column: ColumnLayout, dialect: any SQLDialect.Type) -> String {
        "COALESCE(\(alias).\(dialect.quote(column.name)), 1) <> 0"
    }
}
