internal import CLibPQ

// MARK: - Transactions

extension PostgresConnection {
    /// True inside a transaction block, including one a failed statement aborted.
    var inTransaction: Bool {
        PQtransactionStatus(handle) != PQTRANS_IDLE
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when
    /// it throws.
    ///
    /// Called inside another transaction, it uses a savepoint, so an inner
    /// failure undoes only the inner work.
    ///
    /// ```swift
    /// try connection.transaction {
    ///     try connection.execute("DELETE FROM people")
    ///     try connection.copyIn("COPY people FROM STDIN", rows: rows)
    /// }
    /// ```
    ///
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (after rolling back), or ``PostgresError``
    ///   with operation `.transaction` when the transaction cannot begin or
    ///   commit — including when a statement inside failed and `body` caught
    ///   that error, since the server then rolls the whole transaction back.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        let savepoint = PQtransactionStatus(handle) == PQTRANS_IDLE ? nil : "rmap_savepoint_\(savepointDepth + 1)"
        _ = try run(.transaction) { PQexec(handle, savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN") }
        if savepoint != nil {
            savepointDepth += 1
        }
        defer {
            if savepoint != nil {
                savepointDepth -= 1
            }
        }
        let value: Result
        do {
            value = try body()
        } catch {
            let rollback = savepoint.map { "ROLLBACK TO SAVEPOINT \($0); RELEASE SAVEPOINT \($0)" } ?? "ROLLBACK"
            _ = try? run(.transaction) { PQexec(handle, rollback) }
            throw error
        }
        if let savepoint {
            _ = try run(.transaction) { PQexec(handle, "RELEASE SAVEPOINT \(savepoint)") }
        } else {
            let commit = try run(.transaction) { PQexec(handle, "COMMIT") }
            guard commit.commandTag == "COMMIT" else {
                throw error(
                    .transaction, message: "a statement in the transaction failed, so the server rolled it back")
            }
        }
        return value
    }
}
