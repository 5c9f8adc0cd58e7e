/// The numbers of remembered payloads, in the store's table `_rmap_payload_numbers(payload,
/// origin)`: each remembered object (``RememberedObjects``) names its payload by number, not by
/// its origin's text, so a million objects of one file cost a million small integers rather
/// than a million copies of its path.
package struct PayloadNumbers {
    let dialect: any SQLDialect.Type

    /// The table of numbers.
    package static let name = "_rmap_payload_numbers"
    /// The run's temporary table of the payloads being remembered: the run's origin number
    /// (``StageSchema/originsName``) -> the payload's number.
    static let rememberingName = "_rmap_remembering"
    /// The run's temporary table of the names of the payloads being remembered.
    private static let namesName = "_rmap_remembering_names"

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// Creates the table when it does not exist.
    func ensure(on engine: any SQLEngine) throws {
        guard try engine.columns(of: Self.name).isEmpty else { return }
        try engine.execute(
            "CREATE TABLE \(q(Self.name)) (\(q("payload")) \(dialect.columnType(.int)) PRIMARY KEY, "
                + "\(q("origin")) \(dialect.columnType(.string)) NOT NULL UNIQUE)")
    }

    /// Numbers the payloads named `origins` that have no number yet, and fills the temporary table
    /// ``rememberingName`` with the run's origins of those payloads and their numbers. Drop it with
    /// ``drop(on:)``.
    func number(_ origins: [String], on engine: any SQLEngine) throws {
        let name = [ColumnLayout(name: "_name", type: .string)]
        try engine.execute(StageSchema.table(Self.namesName, name, dialect))
        try engine.insert(into: Self.namesName, columns: name, rows: origins.map { [.string($0)] })
        try engine.execute(
            "INSERT INTO \(q(Self.name)) (\(q("payload")), \(q("origin"))) "
                + "SELECT t.\(q("top")) + row_number() OVER (ORDER BY r.\(q("_name"))), r.\(q("_name")) "
                + "FROM \(q(Self.namesName)) AS r, (SELECT coalesce(max(\(q("payload"))), 0) AS \(q("top")) FROM \(q(Self.name))) AS t "
                + "WHERE NOT EXISTS (SELECT 1 FROM \(q(Self.name)) AS n WHERE n.\(q("origin")) = r.\(q("_name")))")
        try engine.execute(
            "CREATE TEMPORARY TABLE \(q(Self.rememberingName)) (\(q("_origin")) \(dialect.columnType(.int)) PRIMARY KEY, "
                + "\(q("_payload")) \(dialect.columnType(.int)))")
        try engine.execute(
            "INSERT INTO \(q(Self.rememberingName)) (\(q("_origin")), \(q("_payload"))) "
                + "SELECT o.\(q("_origin")), n.\(q("payload")) FROM \(q(StageSchema.originsName)) AS o "
                + "JOIN \(q(Self.name)) AS n ON n.\(q("origin")) = o.\(q("_name")) "
                + "WHERE o.\(q("_name")) IN (SELECT r.\(q("_name")) FROM \(q(Self.namesName)) AS r)")
    }

    /// The numbers of the payloads being remembered, as a subquery.
    var remembered: String {
        "SELECT n.\(q("payload")) FROM \(q(Self.name)) AS n "
            + "WHERE n.\(q("origin")) IN (SELECT r.\(q("_name")) FROM \(q(Self.namesName)) AS r)"
    }

    /// Drops the temporary tables of ``number(_:on:)``.
    func drop(on engine: any SQLEngine) {
        for table in [Self.namesName, Self.rememberingName] {
            _ = try? engine.execute("DROP TABLE IF EXISTS \(q(table))")
        }
    }
}
