internal import CLibPQ

/// Loads rows into a table with `COPY … FROM STDIN` on a connection (the fastest way in): rows
/// encoded in COPY's text format are sent in chunks of 32 KiB, and the server's verdict collected.
///
/// ```swift
/// let copied = try PostgresCopyIn(connection: connection).load("COPY people (id) FROM STDIN", encoded: bytes)
/// ```
struct PostgresCopyIn {
    /// How many encoded bytes collect before they go to the server, which stores them while the
    /// next are encoded: with 256 KiB, a batch of 4,096 tasks went in about two chunks, mostly one
    /// side waiting for the other; a first import of the flat benchmark at N = 100,000 took
    /// 8.9-9.4 s, 8.4-8.8 s with 32 KiB (8 KiB: no faster).
    static let chunkSize = 32 * 1024

    /// The connection the rows go through.
    let connection: PostgresConnection

    /// Loads rows of any kind with `COPY … FROM STDIN`, each written by `encode` in COPY's text
    /// format, in chunks of 32 KiB, as ``PostgresConnection/copyIn(_:rows:)`` does.
    ///
    /// - Parameter width: how many fields `encode` writes for a row, checked against the COPY's columns.
    @discardableResult
    func load<Row>(
        _ sql: String, rows: some Sequence<Row>, width: (Row) -> Int, encode: (Row, inout CopyTextEncoder) -> Void
    ) throws(PostgresError) -> Int {
        let columnCount = try beginCopyIn(sql)
        var encoder = CopyTextEncoder(capacity: Self.chunkSize + 4096)
        for (index, row) in rows.enumerated() {
            guard width(row) == columnCount else {
                let reason = "row \(index + 1) has \(width(row)) values but the COPY takes \(columnCount) columns"
                connection.abandonCopy(PGRES_COPY_IN)
                throw connection.error(.copy, message: reason)
            }
            encode(row, &encoder)
            if encoder.bytes.count >= Self.chunkSize {
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
    func load(_ sql: String, encoded bytes: [UInt8]) throws(PostgresError) -> Int {
        _ = try beginCopyIn(sql)
        return try endCopyIn(sending: bytes)
    }

    /// Sends the last bytes of a COPY, ends it and collects the server's verdict.
    private func endCopyIn(sending bytes: [UInt8]) throws(PostgresError) -> Int {
        try sendCopyData(bytes)
        guard PQputCopyEnd(connection.handle, nil) == 1 else {
            throw connection.error(.copy, message: connection.lastErrorMessage)
        }
        return try finishCopyIn()
    }

    /// Sends the COPY statement; returns how many columns it takes.
    private func beginCopyIn(_ sql: String) throws(PostgresError) -> Int {
        guard let result = PQexec(connection.handle, sql) else {
            throw connection.error(.copy, message: connection.lastErrorMessage)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COPY_IN:
            return Int(PQnfields(result))
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            throw connection.error(.copy, message: "the statement is not a COPY … FROM STDIN")
        case PGRES_COPY_OUT:
            connection.abandonCopy(PGRES_COPY_OUT)
            throw connection.error(.copy, message: "the statement is not a COPY … FROM STDIN")
        default:
            throw connection.error(.copy, result: result)
        }
    }

    private func sendCopyData(_ bytes: [UInt8]) throws(PostgresError) {
        guard !bytes.isEmpty else { return }
        let sent = bytes.withUnsafeBytes { buffer in
            PQputCopyData(
                connection.handle, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(buffer.count))
        }
        guard sent == 1 else {
            let message = connection.lastErrorMessage
            connection.abandonCopy(PGRES_COPY_IN)
            throw connection.error(.copy, message: message)
        }
    }

    /// Collects the server's verdict on the COPY.
    private func finishCopyIn() throws(PostgresError) -> Int {
        var failure: PostgresError?
        var copied = 0
        while let result = PQgetResult(connection.handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = PostgresResult(copying: result).affectedRows ?? 0
            } else if failure == nil {
                failure = connection.error(.copy, result: result)
            }
        }
        if let failure {
            throw failure
        }
        return copied
    }
}
