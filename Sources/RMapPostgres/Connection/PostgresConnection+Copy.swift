internal import CLibPQ

// MARK: - COPY … FROM STDIN

extension PostgresConnection {
    /// How many encoded bytes collect before they go to the server.
    static let copyChunkSize = 256 * 1024

    /// Loads rows with `COPY … FROM STDIN`, the fastest way into a table.
    ///
    /// Rows are encoded in COPY's text format (any text round-trips exactly,
    /// `nil` is NULL) and sent in chunks of 256 KiB, so `rows` may be a lazy
    /// sequence of any length.
    ///
    /// ```swift
    /// try connection.copyIn(
    ///     "COPY people (id, name) FROM STDIN",
    ///     rows: [["1", "Ada"], ["2", nil]]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - sql: A `COPY table [(columns)] FROM STDIN` statement in text format
    ///     (the default; no `FORMAT csv` or `binary`).
    ///   - rows: The rows, each with one value per copied column.
    /// - Returns: The number of rows the server stored.
    /// - Throws: ``PostgresError`` with operation `.copy` when the statement is
    ///   not such a COPY, a row has the wrong number of values, or the server
    ///   rejects the data; nothing is stored then.
    /// - Complexity: O(total size of the rows); memory stays at one chunk.
    @discardableResult
    public func copyIn(_ sql: String, rows: some Sequence<[String?]>) throws(PostgresError) -> Int {
        try copyIn(sql, rows: rows, width: \.count) { $1.append($0) }
    }

    /// Loads rows of any kind with `COPY … FROM STDIN`, each written by `encode` in COPY's text
    /// format, in chunks of 256 KiB, as ``copyIn(_:rows:)`` does.
    ///
    /// - Parameter width: how many fields `encode` writes for a row, checked against the COPY's columns.
    @discardableResult
    func copyIn<Row>(
        _ sql: String, rows: some Sequence<Row>, width: (Row) -> Int, encode: (Row, inout CopyTextEncoder) -> Void
    ) throws(PostgresError) -> Int {
        let columnCount = try beginCopyIn(sql)
        var encoder = CopyTextEncoder(capacity: Self.copyChunkSize + 4096)
        for (index, row) in rows.enumerated() {
            guard width(row) == columnCount else {
                let reason = "row \(index + 1) has \(width(row)) values but the COPY takes \(columnCount) columns"
                abandonCopy(PGRES_COPY_IN)
                throw error(.copy, message: reason)
            }
            encode(row, &encoder)
            if encoder.bytes.count >= Self.copyChunkSize {
                try sendCopyData(encoder.bytes)
                encoder.removeAll()
            }
        }
        return try endCopyIn(sending: encoder.bytes)
    }

    /// Loads rows already in COPY's text format (a ``CopyTextEncoder``'s bytes) with
    /// `COPY … FROM STDIN`, so the same bytes can go to more than one table.
    ///
    /// - Returns: The number of rows the server stored.
    /// - Throws: ``PostgresError`` with operation `.copy` when the server rejects the statement or
    ///   the data; nothing is stored then.
    @discardableResult
    func copyIn(_ sql: String, encoded bytes: [UInt8]) throws(PostgresError) -> Int {
        _ = try beginCopyIn(sql)
        return try endCopyIn(sending: bytes)
    }

    /// Sends the last bytes of a COPY, ends it and collects the server's verdict.
    private func endCopyIn(sending bytes: [UInt8]) throws(PostgresError) -> Int {
        try sendCopyData(bytes)
        guard PQputCopyEnd(handle, nil) == 1 else {
            throw error(.copy, message: lastErrorMessage)
        }
        return try finishCopyIn()
    }

    /// Sends the COPY statement; returns how many columns it takes.
    private func beginCopyIn(_ sql: String) throws(PostgresError) -> Int {
        guard let result = PQexec(handle, sql) else {
            throw error(.copy, message: lastErrorMessage)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COPY_IN:
            return Int(PQnfields(result))
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            throw error(.copy, message: "the statement is not a COPY … FROM STDIN")
        case PGRES_COPY_OUT:
            abandonCopy(PGRES_COPY_OUT)
            throw error(.copy, message: "the statement is not a COPY … FROM STDIN")
        default:
            throw error(.copy, result: result)
        }
    }

    private func sendCopyData(_ bytes: [UInt8]) throws(PostgresError) {
        guard !bytes.isEmpty else { return }
        let sent = bytes.withUnsafeBytes { buffer in
            PQputCopyData(handle, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(buffer.count))
        }
        guard sent == 1 else {
            let message = lastErrorMessage
            abandonCopy(PGRES_COPY_IN)
            throw error(.copy, message: message)
        }
    }

    /// Collects the server's verdict on the COPY.
    private func finishCopyIn() throws(PostgresError) -> Int {
        var failure: PostgresError?
        var copied = 0
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = PostgresResult(copying: result).affectedRows ?? 0
            } else if failure == nil {
                failure = error(.copy, result: result)
            }
        }
        if let failure {
            throw failure
        }
        return copied
    }
}
