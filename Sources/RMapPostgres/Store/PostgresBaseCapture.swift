import RMap

/// Bases only where they are needed, for PostgreSQL: the SQL that keeps an entity table's base
/// for the rows changed locally alone (as `SQLiteBaseCapture` does for SQLite).
///
/// rmap writes each row once; a row without a base equals the server's state. A plpgsql trigger
/// on the entity table copies a row's server state into its base (`_rmap_base_t`) at its first
/// local `UPDATE` or `DELETE`, and notes a local `INSERT` in `_rmap_new_t` (the identities created
/// locally); one on a join table copies the source row's server state at its first link edited.
/// rmap's own writes (a run, an acknowledgement) leave them alone: its write transaction sets
/// ``ownWrites`` with `SET LOCAL`, which no other connection sees and the transaction's end
/// forgets, and the triggers' `WHEN` tests it. A row's base is then its base row when there is
/// one, else nothing when its identity is noted as created locally (or incomplete), else the row
/// itself.
///
/// A store written before (a base for every row) is brought to this form once, when its
/// `_rmap_new_t` table is created: rows without a base are noted as created locally, and base
/// rows equal to their row are dropped.
enum PostgresBaseCapture {
    /// The setting that, `on` inside rmap's own write transaction, turns the triggers off.
    static let ownWrites = "rmap.own_writes"

    /// The name of the triggers, one per table (PostgreSQL names triggers per table).
    static let triggerName = "_rmap_capture"

    /// The table of the identities created locally in `table`.
    static func insertedName(_ table: TableLayout) -> String { "_rmap_new_\(table.name)" }

    /// The trigger function of the entity or join table `name`.
    static func functionName(_ name: String) -> String { "_rmap_edit_\(name)" }

    /// Sets whether the writes that follow in the transaction are rmap's own (`on`) or local edits.
    static func setOwnWrites(_ own: Bool) -> String { "SET LOCAL \(ownWrites) = '\(own ? "on" : "off")'" }

    private static func quote(_ name: String) -> String { PostgresSchema.quote(name) }

    private static func list(_ names: some Sequence<String>, prefix: String = "") -> String {
        PostgresSchema.list(names, prefix: prefix)
    }

    /// `a.x = b.y AND ...` over the identity columns (`b`'s names are `other`, else the same).
    private static func equal(_ left: String, _ right: String, _ names: [String], as other: [String]? = nil) -> String {
        zip(names, other ?? names).map { "\(left).\(quote($0)) = \(right).\(quote($1))" }.joined(separator: " AND ")
    }

    private static func complete(_ prefix: String, _ names: [String]) -> String {
        names.map { "\(prefix).\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
    }

    // MARK: - Schema

    /// Creates the table of identities created locally, then brings rows written before it to
    /// this form: rows without a base were created locally, bases equal to their row (on every
    /// one of the table's `columns`) are dropped.
    static func createInserted(_ table: TableLayout, columns stored: [String]) -> [String] {
        let names = table.identityNames
        let marks = quote(insertedName(table))
        let base = quote(table.baseName)
        let columns = table.identity.map { PostgresSchema.definition(table.columns[$0]) }
        return [
            "CREATE TABLE \(marks) (\(columns.joined(separator: ", ")), PRIMARY KEY (\(list(names))))",
            "INSERT INTO \(marks) (\(list(names))) SELECT \(list(names, prefix: "r.")) "
                + "FROM \(quote(table.name)) AS r WHERE \(complete("r", names)) "
                + "AND NOT EXISTS (SELECT 1 FROM \(base) AS b WHERE \(equal("b", "r", names)))",
            "DELETE FROM \(base) AS b USING \(quote(table.name)) AS r WHERE \(equal("r", "b", names)) "
                + "AND ROW(\(list(stored, prefix: "r."))) IS NOT DISTINCT FROM ROW(\(list(stored, prefix: "b.")))",
        ]
    }

    /// The body of an entity table's trigger function: it copies every one of the table's
    /// `columns` (those the store has, which an older mapping may not name).
    static func entityFunction(_ table: TableLayout, columns stored: [String]) -> String {
        let names = table.identityNames
        let base = quote(table.baseName)
        let marks = quote(insertedName(table))
        let noted = "EXISTS (SELECT 1 FROM \(marks) AS m WHERE \(equal("m", "OLD", names)))"
        let note =
            "INSERT INTO \(marks) (\(list(names))) SELECT \(list(names, prefix: "NEW.")) "
            + "WHERE \(complete("NEW", names)) ON CONFLICT DO NOTHING;"
        let moved = "ROW(\(list(names, prefix: "NEW."))) IS DISTINCT FROM ROW(\(list(names, prefix: "OLD.")))"
        return """
            BEGIN
              IF TG_OP = 'INSERT' THEN
                IF NOT EXISTS (SELECT 1 FROM \(base) AS b WHERE \(equal("b", "NEW", names))) THEN \(note) END IF;
                RETURN NULL;
              END IF;
              IF \(complete("OLD", names)) AND NOT \(noted) THEN
                INSERT INTO \(base) (\(list(stored))) VALUES (\(list(stored, prefix: "OLD."))) ON CONFLICT DO NOTHING;
              END IF;
              IF TG_OP = 'DELETE' THEN
                DELETE FROM \(marks) AS m WHERE \(equal("m", "OLD", names));
              ELSIF \(moved) THEN
                DELETE FROM \(marks) AS m WHERE \(equal("m", "OLD", names));
                \(note)
              END IF;
              RETURN NULL;
            END
            """
    }

    /// The body of a join table's trigger function: a link added or removed copies its source
    /// row's server state into the source table's base, unless it has one or was created locally.
    static func joinFunction(_ join: JoinTableLayout, source table: TableLayout, columns stored: [String]) -> String {
        let names = table.identityNames
        let sources = join.columns.prefix(join.sourceColumnCount).map(\.name)
        func capture(_ link: String) -> String {
            "INSERT INTO \(quote(table.baseName)) (\(list(stored))) SELECT \(list(stored, prefix: "r.")) "
                + "FROM \(quote(table.name)) AS r WHERE \(equal("r", link, names, as: sources)) "
                + "AND NOT EXISTS (SELECT 1 FROM \(quote(insertedName(table))) AS m "
                + "WHERE \(equal("m", link, names, as: sources))) ON CONFLICT DO NOTHING;"
        }
        return """
            BEGIN
              IF TG_OP = 'INSERT' THEN \(capture("NEW")) ELSE \(capture("OLD")) END IF;
              RETURN NULL;
            END
            """
    }

    /// Creates or replaces the trigger function `name` with `body`; it runs with the search path of
    /// its creation, so that a client with another one edits the same tables.
    static func createFunction(_ name: String, body: String) -> String {
        "CREATE OR REPLACE FUNCTION \(quote(name))() RETURNS trigger LANGUAGE plpgsql "
            + "SET search_path FROM CURRENT AS $rmap$\(body)$rmap$"
    }

    /// The trigger on table `name` for `events`, which calls `function` for local edits only.
    static func createTrigger(on name: String, events: String, function: String) -> String {
        "CREATE TRIGGER \(quote(triggerName)) AFTER \(events) ON \(quote(name)) FOR EACH ROW "
            + "WHEN (current_setting('\(ownWrites)', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION \(quote(function))()"
    }
}
