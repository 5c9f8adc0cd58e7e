import RMap

/// Bases only where they are needed: the SQL that keeps an entity table's base for the rows
/// changed locally alone.
///
/// rmap writes each row once; a row without a base equals the server's state. Triggers on the
/// entity table copy a row's server state into its base (`_rmap_base_t`) at its first local
/// `UPDATE` or `DELETE`, and note a local `INSERT` in `_rmap_new_t` (the identities created
/// locally); triggers on a join table copy the source row's server state at its first link
/// edited. rmap's own writes (a run, an acknowledgement) leave them alone: inside its write
/// transaction it puts one row in `_rmap_own_writes`, which it deletes before committing, so no
/// other connection ever sees it. A row's base is then its base row when there is one, else
/// nothing when its identity is noted as created locally (or incomplete), else the row itself.
///
/// A store written before (a base for every row) is brought to this form once, when its
/// `_rmap_new_t` table is created: rows without a base are noted as created locally, and base
/// rows equal to their row are dropped.
enum SQLiteBaseCapture {
    /// The table whose one row, inside rmap's own write transaction, turns the triggers off.
    static let ownWrites = "_rmap_own_writes"

    /// The table of the identities created locally in `table`.
    static func insertedName(_ table: TableLayout) -> String { "_rmap_new_\(table.name)" }

    private static func quote(_ name: String) -> String { SQLiteSchema.quote(name) }

    private static func list(_ names: some Sequence<String>) -> String { SQLiteSchema.list(names) }

    /// `p."a", p."b"`: columns of the table or row `prefix`.
    private static func qualified(_ prefix: String, _ names: [String]) -> String {
        names.map { "\(prefix).\(quote($0))" }.joined(separator: ", ")
    }

    /// `a.x = b.y AND ...` over the identity columns (`b`'s names are `right`, else the same).
    private static func equal(_ left: String, _ right: String, _ names: [String], as other: [String]? = nil) -> String {
        zip(names, other ?? names).map { "\(left).\(quote($0)) = \(right).\(quote($1))" }.joined(separator: " AND ")
    }

    /// True (in a trigger) when `table` has no row with the identity of `row`. The triggers test
    /// this instead of writing `INSERT OR IGNORE`: the conflict clause of the statement that fires
    /// a trigger overrides the trigger's own (an upsert's turns `OR IGNORE` into an abort).
    private static func absent(from table: String, _ row: String, _ names: [String]) -> String {
        "NOT EXISTS (SELECT 1 FROM \(table) AS e WHERE \(equal("e", row, names)))"
    }

    private static func complete(_ prefix: String, _ names: [String]) -> String {
        names.map { "\(prefix).\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
    }

    /// True (in a trigger's `WHEN`) when the write is a local edit.
    private static let localEdit = "NOT EXISTS (SELECT 1 FROM \"\(ownWrites)\")"

    // MARK: - Schema

    /// Turns the triggers off for the rest of the transaction, or until ``clearOwnWrites``.
    static let setOwnWrites = "INSERT OR IGNORE INTO \"\(ownWrites)\" VALUES (1)"
    /// Turns the triggers on again.
    static let clearOwnWrites = "DELETE FROM \"\(ownWrites)\""

    /// The flag table, created once per store.
    static let createOwnWrites = "CREATE TABLE IF NOT EXISTS \"\(ownWrites)\" (flag INTEGER PRIMARY KEY)"

    /// Creates the table of identities created locally, then brings rows written before it to
    /// this form: rows without a base were created locally, bases equal to their row (on every
    /// one of the table's `columns`) are dropped.
    static func createInserted(_ table: TableLayout, columns stored: [String]) -> [String] {
        let columns = table.identity.map { SQLiteSchema.definition(table.columns[$0]) }
        let create =
            "CREATE TABLE \(quote(insertedName(table))) (\(columns.joined(separator: ", ")), "
            + "PRIMARY KEY (\(list(table.identityNames)))) WITHOUT ROWID"
        return [create] + settle(table, columns: stored)
    }

    /// Brings rows and bases written with a base for every row to this form: rows without a base
    /// are noted as created locally, bases equal to their row (on every one of `columns`) are
    /// dropped. The table of identities created locally exists (and holds none of these rows).
    static func settle(_ table: TableLayout, columns stored: [String]) -> [String] {
        let names = table.identityNames
        let marks = quote(insertedName(table))
        let rows = quote(table.name)
        let base = quote(table.baseName)
        let same = stored.map { "r.\(quote($0)) IS \(base).\(quote($0))" }.joined(separator: " AND ")
        return [
            "INSERT OR IGNORE INTO \(marks) (\(list(names))) SELECT \(qualified("r", names)) "
                + "FROM \(rows) AS r WHERE \(complete("r", names)) "
                + "AND NOT EXISTS (SELECT 1 FROM \(base) AS b WHERE \(equal("b", "r", names)))",
            "DELETE FROM \(base) WHERE EXISTS (SELECT 1 FROM \(rows) AS r WHERE \(same))",
        ]
    }

    /// The triggers of an entity table and of the join tables whose source it is, by name. They
    /// copy every one of the table's `columns` (those the store has, which an older mapping may not name).
    static func triggers(_ table: TableLayout, columns stored: [String], joins: [JoinTableLayout]) -> [(
        name: String, sql: String
    )] {
        let names = table.identityNames
        let rows = quote(table.name)
        let base = quote(table.baseName)
        let marks = quote(insertedName(table))
        let columns = list(stored)
        func unmarked(_ row: String) -> String {
            "NOT EXISTS (SELECT 1 FROM \(marks) AS m WHERE \(equal("m", row, names)))"
        }
        /// Copies the row `row` (`OLD`) into the base unless it has one or was created locally.
        func capture(_ row: String) -> String {
            "INSERT INTO \(base) (\(columns)) SELECT \(qualified(row, stored)) "
                + "WHERE \(complete(row, names)) AND \(unmarked(row)) AND \(absent(from: base, row, names));"
        }
        let moved = names.map { "NEW.\(quote($0)) IS NOT OLD.\(quote($0))" }.joined(separator: " OR ")
        var triggers = [
            (
                "_rmap_update_\(table.name)",
                "AFTER UPDATE ON \(rows) WHEN \(localEdit) BEGIN \(capture("OLD")) "
                    + "DELETE FROM \(marks) WHERE (\(moved)) AND \(equal(marks, "OLD", names)); "
                    + "INSERT INTO \(marks) (\(list(names))) SELECT \(qualified("NEW", names)) "
                    + "WHERE (\(moved)) AND \(complete("NEW", names)) AND \(absent(from: marks, "NEW", names)); END"
            ),
            (
                "_rmap_delete_\(table.name)",
                "AFTER DELETE ON \(rows) WHEN \(localEdit) BEGIN \(capture("OLD")) "
                    + "DELETE FROM \(marks) WHERE \(equal(marks, "OLD", names)); END"
            ),
        ]
        for join in joins where join.sourceColumnCount == names.count {
            let sources = join.columns.prefix(join.sourceColumnCount).map(\.name)
            let (inserted, deleted) = linkTriggerNames(join)
            for (event, row, name) in [("INSERT", "NEW", inserted), ("DELETE", "OLD", deleted)] {
                let source = equal("r", row, names, as: sources)
                let fromMarks = zip(names, sources).map { "m.\(quote($0)) = \(row).\(quote($1))" }
                    .joined(separator: " AND ")
                triggers.append(
                    (
                        name,
                        "AFTER \(event) ON \(quote(join.name)) WHEN \(localEdit) BEGIN "
                            + "INSERT INTO \(base) (\(columns)) SELECT "
                            + "\(qualified("r", stored)) FROM \(rows) AS r WHERE \(source) "
                            + "AND NOT EXISTS (SELECT 1 FROM \(marks) AS m WHERE \(fromMarks)) "
                            + "AND \(absent(from: base, "r", names)); END"
                    ))
            }
        }
        return insertTriggers(table, columns: stored)
            + triggers.map { name, body in (name, "CREATE TRIGGER \(quote(name)) \(body)") }
    }

    /// The names of a join table's triggers (``triggers(_:columns:joins:)``): after an `INSERT`, after a `DELETE`.
    static func linkTriggerNames(_ join: JoinTableLayout) -> (inserted: String, deleted: String) {
        ("_rmap_insert_\(join.name)", "_rmap_delete_\(join.name)")
    }

    /// The names of ``insertTriggers(_:columns:)``: before and after the `INSERT`.
    static func insertTriggerNames(_ table: TableLayout) -> (before: String, after: String) {
        let names = insertTriggerNames(of: table.name)
        return (names[0], names[1])
    }

    /// The names an `INSERT` trigger of the table `name` may have: an entity table's two, a join
    /// table's one (``linkTriggerNames(_:)``'s `inserted`).
    static func insertTriggerNames(of name: String) -> [String] {
        ["_rmap_replace_\(name)", "_rmap_insert_\(name)"]
    }

    /// The triggers of a local `INSERT` into an entity table. Before it, a row it is about to
    /// replace (`INSERT OR REPLACE`, whose implicit delete fires no trigger) has its server state
    /// copied into the base, as an `UPDATE` would; after it, an identity with no base is noted as
    /// created locally (one with a base, such as a row deleted and inserted again, is an update).
    static func insertTriggers(_ table: TableLayout, columns stored: [String]) -> [(name: String, sql: String)] {
        let names = table.identityNames
        let rows = quote(table.name)
        let base = quote(table.baseName)
        let marks = quote(insertedName(table))
        let (replaced, inserted) = insertTriggerNames(table)
        return [
            (
                replaced,
                "CREATE TRIGGER \(quote(replaced)) BEFORE INSERT ON \(rows) WHEN \(localEdit) BEGIN "
                    + "INSERT INTO \(base) (\(list(stored))) SELECT \(qualified("r", stored)) "
                    + "FROM \(rows) AS r WHERE \(equal("r", "NEW", names)) "
                    + "AND NOT EXISTS (SELECT 1 FROM \(marks) AS m WHERE \(equal("m", "r", names))) "
                    + "AND \(absent(from: base, "r", names)); END"
            ),
            (
                inserted,
                "CREATE TRIGGER \(quote(inserted)) AFTER INSERT ON \(rows) WHEN \(localEdit) BEGIN "
                    + "INSERT INTO \(marks) (\(list(names))) SELECT \(qualified("NEW", names)) "
                    + "WHERE \(complete("NEW", names)) AND \(absent(from: base, "NEW", names)) "
                    + "AND \(absent(from: marks, "NEW", names)); END"
            ),
        ]
    }
}
