import Foundation
import RMapPostgres
import RMapSQLite

/// What a store holds, table by table: the row count and a checksum of the
/// sorted rows. Two stores with equal contents hold the same rows; a
/// mismatch prints a few numbers, not the rows.
struct StoreContents: Equatable, CustomStringConvertible {
    /// Row count and checksum by table name.
    var tables: [String: Table]

    /// One table's summary.
    struct Table: Equatable {
        var rows: Int
        var checksum: UInt64
    }

    /// Summarises tables given as rows of text.
    init(_ rows: [String: [String]]) {
        tables = rows.mapValues { rows in
            // FNV-1a over the sorted rows: stable across processes, unlike `Hasher`.
            var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in rows.sorted().joined(separator: "\n").utf8 {
                checksum = (checksum ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return Table(rows: rows.count, checksum: checksum)
        }
    }

    var description: String {
        tables.keys.sorted().map { "\($0): \(tables[$0]!.rows) rows #\(String(tables[$0]!.checksum, radix: 16))" }
            .joined(separator: ", ")
    }

    /// Every table of a SQLite file.
    static func sqlite(_ path: String) throws -> StoreContents {
        let connection = try SQLiteConnection(path: path)
        let names = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'")
        var rows: [String: [String]] = [:]
        for case .text(let name) in names.map(\.[0]) {
            rows[name] = try connection.query("SELECT * FROM \"\(name)\"").map { "\($0)" }
        }
        return StoreContents(rows)
    }

    /// What `PRAGMA integrity_check` says of a SQLite file: `["ok"]`, or its problems.
    /// Opening the file first rolls back what a killed run left in its journal.
    static func sqliteIntegrity(_ path: String) throws -> [String] {
        try SQLiteConnection(path: path).query("PRAGMA integrity_check").map { row in
            guard case .text(let text)? = row.first else { return "\(row)" }
            return text
        }
    }

    /// Every table of the connection's schema, less `_rmap_rowid`: a handle
    /// from a sequence, which a rolled-back transaction does not give back.
    static func postgres(_ url: String) throws -> StoreContents {
        let connection = try PostgresConnection(url: url)
        let names = try connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        var rows: [String: [String]] = [:]
        for case let name? in names.rows.map(\.[0]) {
            let table = PostgresConnection.quoteIdentifier(name)
            rows[name] = try connection.query("SELECT (to_jsonb(t) - '_rmap_rowid')::text FROM \(table) AS t").rows
                .map { $0[0] ?? "" }
        }
        return StoreContents(rows)
    }
}
