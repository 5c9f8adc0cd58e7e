import Foundation
import RMapPostgres
import RMapSQLite
import Testing

@testable import RMap

/// What every ``SQLEngine`` guarantees the run's SQL (docs/architecture.md, "Data flow"), checked
/// on each built-in engine: SQLite on a file, PostgreSQL on the test server (a schema of its own
/// per test).
@Suite("SQLEngine conformance")
struct SQLEngineConformanceTests {
    /// An engine under test.
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres

        var testDescription: String { rawValue }

        /// A new engine on an empty store; `directory` holds its file or names its schema.
        func open(_ directory: URL) throws -> any SQLEngine {
            switch self {
            case .sqlite:
                try SQLiteEngine(
                    connection: SQLiteConnection(path: directory.appendingPathComponent("rmap.sqlite").path))
            case .postgres:
                try PostgresEngine(connection: PostgresConnection(url: PostgresSchemas.url(for: directory)))
            }
        }

        /// An integer expression that fails for `i` greater than the parameter (SQLite's `1 / 0` is null).
        var failingAfterParameter: String {
            switch self {
            case .sqlite: "CASE WHEN i <= ? THEN i ELSE json('not json') END"
            case .postgres: "CASE WHEN i <= ? THEN i ELSE 1 / (i - i) END"
            }
        }
    }

    private func engine(_ kind: Kind) throws -> any SQLEngine {
        try kind.open(StoreFixtures.temporaryDirectory())
    }

    /// Creates a table of `columns` in `engine`'s dialect.
    private func create(_ table: String, _ columns: [ColumnLayout], on engine: any SQLEngine, temporary: Bool = false)
        throws
    {
        if temporary {
            try engine.execute(StageSchema.table(table, columns, engine.dialect))
        } else {
            let definitions = columns.map { engine.dialect.definition($0) }.joined(separator: ", ")
            try engine.execute("CREATE TABLE \(engine.dialect.quote(table)) (\(definitions))")
        }
    }

    private func decimal(_ text: String) -> DecimalNumber { DecimalNumber(text)! }

    // MARK: - Values

    /// A column of every type, and rows holding what stores most easily get wrong.
    private static let typedColumns: [ColumnLayout] = [
        ColumnLayout(name: "n", type: .int), ColumnLayout(name: "i", type: .int),
        ColumnLayout(name: "d", type: .double), ColumnLayout(name: "m", type: .decimal),
        ColumnLayout(name: "b", type: .bool), ColumnLayout(name: "s", type: .string),
        ColumnLayout(name: "u", type: .url), ColumnLayout(name: "day", type: .date),
        ColumnLayout(name: "at", type: .datetime), ColumnLayout(name: "j", type: .json),
        ColumnLayout(name: "a", type: .array(.string)), ColumnLayout(name: "ai", type: .array(.int)),
    ]

    private func typedRows(_ count: Int) -> [[Value]] {
        let json = JSONValue.object(
            JSONObject([("a", .number("1.50")), ("b", .array([.bool(true), .null, .string("x \"y\" \\ 東京")]))]))
        let samples: [[Value]] = [
            [
                .int(Int64.max), .double(0.1), .decimal(decimal("1234.50")), .bool(false),
                .string("Zoë \"q\" \\ tab\there\nline\r, 🚀"), .string("https://example.com/a?b=1&c=%20"),
                .date(LocalDate(year: 1985, month: 12, day: 10)!),
                .datetime(Timestamp(milliseconds: 1_700_000_000_123)),
                .json(json), .array([.string("a"), .string("b \"c\" \\"), .string("")]), .array([.int(1), .int(-2)]),
            ],
            [
                .int(Int64.min), .double(-1e300), .decimal(decimal("-0.000100")), .bool(true), .string(""),
                .string("http://x"), .date(LocalDate(year: 2024, month: 2, day: 29)!),
                .datetime(Timestamp(milliseconds: -1)), .json(.array([.number("3"), .string("")])), .array([]),
                .array([]),
            ],
            Array(repeating: .null, count: 11),
        ]
        return (0..<count).map { [.int(Int64($0))] + samples[$0 % samples.count] }
    }

    @Test("every value case goes in and comes back as it was", arguments: Kind.allCases, [1, 3, 200])
    func valuesRoundTrip(kind: Kind, count: Int) throws {
        let engine = try engine(kind)
        let columns = Self.typedColumns
        try create("typed", columns, on: engine)
        let rows = typedRows(count)
        try engine.insert(into: "typed", columns: columns, rows: rows)
        let read = try engine.rows(
            "SELECT \(engine.dialect.list(columns.map(\.name))) FROM typed ORDER BY n", types: columns.map(\.type))
        #expect(read == rows)
        // Decimals keep their digits, not only their value.
        let digits = read.compactMap { row -> String? in
            if case .decimal(let number) = row[3] { number.text } else { nil }
        }
        #expect(Array(digits.prefix(2)) == Array(["1234.50", "-0.000100"].prefix(min(2, count))))
    }

    @Test("a parameter of every value case compares equal to the stored value", arguments: Kind.allCases)
    func parametersBindEveryCase(kind: Kind) throws {
        let engine = try engine(kind)
        let columns = Self.typedColumns
        try create("typed", columns, on: engine)
        let row = typedRows(1)[0]
        try engine.insert(into: "typed", columns: columns, rows: [row])
        for (position, column) in columns.enumerated() where !column.type.isArray && column.type != .json {
            let found = try engine.count(
                "SELECT count(*) FROM typed WHERE \(engine.dialect.same(engine.dialect.quote(column.name), "?", type: column.type))",
                [row[position]])
            #expect(found == 1, "\(column.name) = \(row[position])")
        }
    }

    @Test("execute counts the rows it changed", arguments: Kind.allCases)
    func executeCountsChanges(kind: Kind) throws {
        let engine = try engine(kind)
        try create("t", [ColumnLayout(name: "id", type: .int)], on: engine)
        #expect(try engine.execute("INSERT INTO t (id) VALUES (?), (?), (?)", [.int(1), .int(2), .int(3)]) == 3)
        #expect(try engine.execute("UPDATE t SET id = id + 10 WHERE id >= ?", [.int(2)]) == 2)
        #expect(try engine.execute("DELETE FROM t") == 3)
    }

    // MARK: - Parameters

    @Test("a question mark in a quoted name, a literal or a comment is no parameter", arguments: Kind.allCases)
    func questionMarksInQuotes(kind: Kind) throws {
        let engine = try engine(kind)
        try create("odd?", [ColumnLayout(name: "a?b", type: .string), ColumnLayout(name: "n", type: .int)], on: engine)
        try engine.execute(#"INSERT INTO "odd?" ("a?b", n) VALUES (?, ?)"#, [.string("it's ?"), .int(1)])
        let rows = try engine.rows(
            #"SELECT "a?b", 'x''?', ? /* ? */ FROM "odd?" -- ?"# + "\n" + #"WHERE "a?b" = ? AND n = ?"#,
            [.string("p"), .string("it's ?"), .int(1)], types: [.string, .string, .string])
        #expect(rows == [[.string("it's ?"), .string("x'?"), .string("p")]])
    }

    // MARK: - Streaming

    @Test("rows reach the caller while the query runs", arguments: Kind.allCases)
    func rowsStream(kind: Kind) throws {
        let engine = try engine(kind)
        let total = 200_000
        var seen = 0
        var inOrder = true
        // The statement fails at its last row: the rows before it were handed over already, so the
        // engine did not collect the result before passing it on.
        #expect(throws: (any Error).self) {
            try engine.query(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                    + "SELECT \(kind.failingAfterParameter), 'row ' || i FROM n",
                [.int(Int64(total)), .int(Int64(total - 1))], types: [.int, .string]
            ) { row in
                seen += 1
                inOrder = inOrder && row[0] == .int(Int64(seen))
            }
        }
        #expect(seen == total - 1)
        #expect(inOrder)
        // The connection is usable after the failure, and after a caller that stops early.
        struct Enough: Error {}
        #expect(throws: Enough.self) {
            try engine.query(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT i FROM n",
                [.int(Int64(total))], types: [.int]
            ) { _ in throw Enough() }
        }
        #expect(try engine.count("SELECT ?", [.int(42)]) == 42)
    }

    // MARK: - Transactions

    @Test("a rollback leaves rows and schema as before", arguments: Kind.allCases)
    func rollbackUndoesEverything(kind: Kind) throws {
        let engine = try engine(kind)
        try create("kept", [ColumnLayout(name: "id", type: .int)], on: engine)
        try engine.insert(into: "kept", columns: [ColumnLayout(name: "id", type: .int)], rows: [[.int(1)]])
        try engine.transaction(commit: false) {
            try create("added", [ColumnLayout(name: "id", type: .int)], on: engine)
            try engine.execute("ALTER TABLE kept ADD COLUMN extra \(engine.dialect.columnType(.string))")
            try engine.execute("INSERT INTO kept (id) VALUES (2)")
            try engine.execute("DELETE FROM kept WHERE id = 1")
            #expect(try engine.columns(of: "added") == ["id"])
        }
        #expect(try engine.columns(of: "added").isEmpty)
        #expect(try engine.columns(of: "kept") == ["id"])
        #expect(try engine.rows("SELECT id FROM kept", types: [.int]) == [[.int(1)]])
        engine.rollback()  // outside a transaction: nothing to do, no error

        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try engine.transaction {
                try engine.execute("INSERT INTO kept (id) VALUES (3)")
                throw Failure()
            }
        }
        try engine.transaction { _ = try engine.execute("INSERT INTO kept (id) VALUES (4)") }
        #expect(try engine.rows("SELECT id FROM kept ORDER BY id", types: [.int]) == [[.int(1)], [.int(4)]])
    }

    @Test("a read transaction sees one state while another connection commits", arguments: Kind.allCases)
    func readTransactionIsASnapshot(kind: Kind) throws {
        let directory = try StoreFixtures.temporaryDirectory()
        let reader = try kind.open(directory)
        let writer = try kind.open(directory)
        try create("t", [ColumnLayout(name: "id", type: .int)], on: writer)
        try writer.execute("INSERT INTO t (id) VALUES (1)")
        try reader.begin(.read)
        #expect(try reader.count("SELECT count(*) FROM t") == 1)
        if kind == .postgres {
            // SQLite's readers block its writers' commit instead; PostgreSQL's snapshot lets them commit.
            try writer.transaction { _ = try writer.execute("INSERT INTO t (id) VALUES (2)") }
            #expect(try reader.count("SELECT count(*) FROM t") == 1)
        }
        try reader.commit()
        try writer.transaction { _ = try writer.execute("INSERT INTO t (id) VALUES (3)") }
        #expect(try reader.count("SELECT count(*) FROM t") == (kind == .postgres ? 3 : 2))
    }

    @Test("temporary tables belong to their connection and list their columns", arguments: Kind.allCases)
    func temporaryTables(kind: Kind) throws {
        let directory = try StoreFixtures.temporaryDirectory()
        let engine = try kind.open(directory)
        let other = try kind.open(directory)
        let columns = [ColumnLayout(name: "_seq", type: .int), ColumnLayout(name: "_value", type: .decimal)]
        try create("_rmap_stage_test", columns, on: engine, temporary: true)
        #expect(try engine.columns(of: "_rmap_stage_test") == ["_seq", "_value"])
        #expect(try other.columns(of: "_rmap_stage_test").isEmpty)
        let rows = (0..<100).map { [Value.int(Int64($0)), .decimal(decimal("\($0).10"))] }
        try engine.insert(into: "_rmap_stage_test", columns: columns, rows: rows)
        try engine.transaction { _ = try engine.execute("DELETE FROM _rmap_stage_test WHERE _seq >= 10") }
        #expect(
            try engine.rows("SELECT _seq, _value FROM _rmap_stage_test ORDER BY _seq", types: [.int, .decimal])
                == Array(rows.prefix(10)))
        #expect(try engine.columns(of: "no_such_table").isEmpty)
    }

    // MARK: - The store's base capture

    @Test("the base capture comes with the tables, records local edits only, and rolls back", arguments: Kind.allCases)
    func baseCapture(kind: Kind) throws {
        let engine = try engine(kind)
        let layout = StoreLayout(schema: try StoreFixtures.schema())
        let table = try #require(layout.table(named: "people"))
        try engine.transaction(commit: false) { try StoreSchema.ensure(layout, on: engine) }
        #expect(try !StoreSchema.holds(layout, on: engine))
        try engine.transaction { try StoreSchema.ensure(layout, on: engine) }
        #expect(try StoreSchema.holds(layout, on: engine))

        let q = engine.dialect.quote
        try engine.transaction {
            try engine.execute("INSERT INTO \(q(table.name)) (id, first_name) VALUES (1, 'Ada')")
            try engine.execute("UPDATE \(q(table.name)) SET first_name = 'Ada L.'")
        }
        #expect(try engine.count("SELECT count(*) FROM \(q(table.baseName))") == 0)
        try engine.transaction {
            try engine.setLocalEdits(true)
            try engine.execute("UPDATE \(q(table.name)) SET first_name = 'Ada Lovelace'")
            try engine.setLocalEdits(false)
            try engine.execute("UPDATE \(q(table.name)) SET first_name = 'Ada King'")
        }
        #expect(
            try engine.rows("SELECT id, first_name FROM \(q(table.baseName))", types: [.int, .string]) == [
                [.int(1), .string("Ada L.")]
            ])
    }

    // MARK: - Dialect

    @Test("same compares values as rmap does: decimals by value, null with null", arguments: Kind.allCases)
    func sameValues(kind: Kind) throws {
        let engine = try engine(kind)
        let columns = [ColumnLayout(name: "a", type: .decimal), ColumnLayout(name: "b", type: .decimal)]
        try create("pairs", columns, on: engine)
        let pairs: [([Value], Bool)] = [
            ([.decimal(decimal("1.0")), .decimal(decimal("1.00"))], true),
            ([.decimal(decimal("1e2")), .decimal(decimal("100"))], true),
            ([.decimal(decimal("1.0")), .decimal(decimal("1.01"))], false),
            ([.null, .null], true),
            ([.null, .decimal(decimal("0"))], false),
        ]
        for (values, same) in pairs {
            try engine.execute("DELETE FROM pairs")
            try engine.insert(into: "pairs", columns: columns, rows: [values])
            let found = try engine.count(
                "SELECT count(*) FROM pairs WHERE \(engine.dialect.same("a", "b", type: .decimal))")
            #expect((found == 1) == same, "\(values)")
        }
    }

    /// Values whose keys a stored column of their type must give, as the staged side writes them.
    private static let keyed: [(AttributeType, [Value])] = [
        (.int, [.int(7), .int(-1), .int(Int64.max)]),
        (.string, [.string("01"), .string("1.0"), .string("x")]),
        (
            .decimal,
            ["1.50", "100", "-0.0", "1e3", "0.000123", "-12.5e-2", "123456789012345678901234567890"].map {
                .decimal(DecimalNumber($0)!)
            }
        ),
        (.double, [.double(0.1), .double(3), .double(1e20), .double(0.1 + 0.2), .double(-2.5), .double(1e-7)]),
        (.bool, [.bool(true), .bool(false)]),
        (.date, [.date(LocalDate(year: 1985, month: 12, day: 10)!), .date(LocalDate(year: 2024, month: 2, day: 29)!)]),
        (.datetime, [.datetime(Timestamp(milliseconds: 1_700_000_000_123)), .datetime(Timestamp(milliseconds: 0))]),
    ]

    @Test("the key of a stored column is the value's canonical key in its domain", arguments: Kind.allCases)
    func storedKeys(kind: Kind) throws {
        let engine = try engine(kind)
        for (number, (type, values)) in Self.keyed.enumerated() {
            let table = "keys_\(number)"
            let columns = [ColumnLayout(name: "n", type: .int), ColumnLayout(name: "v", type: type)]
            try create(table, columns, on: engine)
            try engine.insert(
                into: table, columns: columns, rows: (values + [.null]).enumerated().map { [.int(Int64($0)), $1] })
            let domain = KeyDomain(type)
            let keys = try engine.rows(
                "SELECT \(engine.dialect.keyExpression("v", type: type)) FROM \(table) ORDER BY n",
                types: [domain.columnType]
            ).map { $0[0] }
            #expect(keys == values.map { CanonicalKey.value($0, in: domain) ?? .null } + [.null], "\(type)")
        }
    }

    @Test("orderable orders values as rmap does", arguments: Kind.allCases)
    func orderableValues(kind: Kind) throws {
        let engine = try engine(kind)
        let ordered: [(AttributeType, [Value])] = [
            (.decimal, ["-3", "9.5", "10.25", "10.3", "1e2"].map { .decimal(DecimalNumber($0)!) }),
            (.double, [.double(-1), .double(2.5), .double(10)]),
            (.date, [.date(LocalDate(year: 999, month: 1, day: 1)!), .date(LocalDate(year: 2024, month: 1, day: 9)!)]),
            (.datetime, [.datetime(Timestamp(milliseconds: 5)), .datetime(Timestamp(milliseconds: 86_400_000))]),
        ]
        for (number, (type, values)) in ordered.enumerated() {
            let table = "order_\(number)"
            let columns = [ColumnLayout(name: "v", type: type)]
            try create(table, columns, on: engine)
            try engine.insert(into: table, columns: columns, rows: values.reversed().map { [$0] })
            let read = try engine.rows(
                "SELECT v FROM \(table) ORDER BY \(engine.dialect.orderable("v", type: type))", types: [type]
            ).map { $0[0] }
            #expect(read == values, "\(type)")
            let below = try engine.count(
                "SELECT count(*) FROM \(table) WHERE \(engine.dialect.orderable("v", type: type)) < "
                    + engine.dialect.orderable("?", type: type), [values[1]])
            #expect(below == 1, "\(type)")
        }
    }
}
