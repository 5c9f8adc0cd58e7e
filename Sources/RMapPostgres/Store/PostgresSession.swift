/// The statements that set up a connection of the `postgres` store and open its transactions,
/// used by ``PostgresEngine``.
enum PostgresSession {
    /// The session settings values are read back under: `TimeZone` UTC (date-times in UTC),
    /// `DateStyle` ISO (dates `YYYY-MM-DD`), and floats printed shortest and exact.
    static let settings = "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, YMD'; SET extra_float_digits TO 3"

    /// A write transaction: a transaction-level advisory lock on the current schema, so that two
    /// runs against the same tables write one after the other (as SQLite's `BEGIN IMMEDIATE` makes
    /// them), and writes flagged as rmap's own (``PostgresBaseCapture``).
    static let beginWrite =
        "BEGIN; SELECT pg_advisory_xact_lock(hashtext('rmap'), hashtext(coalesce(current_schema(), ''))); "
        + PostgresBaseCapture.setOwnWrites(true)

    /// A snapshot that only reads, without the advisory lock: a run writing meanwhile neither waits nor shows.
    static let beginRead = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    /// Commits the connection's transaction.
    ///
    /// - Throws: ``PostgresError`` with operation `.transaction` when the server rolled it back
    ///   instead (a statement in it had failed).
    static func commit(on connection: PostgresConnection) throws(PostgresError) {
        let result = try connection.query("COMMIT")
        guard result.commandTag == "COMMIT" else {
            throw PostgresError(
                operation: .transaction, message: "a statement in the transaction failed, so the server rolled it back",
                endpoint: connection.endpoint)
        }
    }
}
