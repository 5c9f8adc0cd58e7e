import RMapPostgres
import Testing

@Suite("PostgresConnection COPY")
struct PostgresCopyTests {
    private func connect() throws -> PostgresConnection {
        try PostgresConnection(url: PostgresServer.url())
    }

    /// Text that needs every COPY escape, plus NULL, empty text and a literal `\N`.
    private static func row(_ id: Int) -> [String?] {
        let tricky: [String?] = [
            "tab\there", "new\nline", "carriage\rreturn", #"back\slash"#, #"\N"#, "", nil,
            "ünïcødé 🚀\t\\\n\r", "end with backslash\\", "\\.",
        ]
        return [String(id), tricky[id % tricky.count], id % 7 == 0 ? nil : "plain \(id)"]
    }

    @Test func hundredThousandRowsRoundTripExactly() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE copied (id int PRIMARY KEY, tricky text, plain text)")
        let count = 100_000
        let copied = try connection.copyIn(
            "COPY copied (id, tricky, plain) FROM STDIN",
            rows: (0..<count).lazy.map(Self.row)
        )
        #expect(copied == count)
        let stored = try connection.query("SELECT id, tricky, plain FROM copied ORDER BY id").rows
        #expect(stored.count == count)
        let mismatches = (0..<count).filter { stored[$0] != Self.row($0) }
        #expect(mismatches.isEmpty, "first mismatching ids: \(mismatches.prefix(5))")
        let nulls = try connection.query("SELECT count(*) FROM copied WHERE tricky IS NULL").rows
        #expect(nulls == [[String(count / 10)]])
    }

    @Test func wrongNumberOfValuesStoresNothing() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE pairs (a text, b text)")
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY pairs FROM STDIN", rows: [["1", "2"], ["3"]])
        }
        #expect(error.operation == .copy)
        #expect(error.message == "row 2 has 1 values but the COPY takes 2 columns")
        #expect(try connection.query("SELECT count(*) FROM pairs").rows == [["0"]])
    }

    @Test func dataTheServerRejectsThrowsWithSQLState() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE numbers (n int)")
        let rows = (0..<300_000).lazy.map { n -> [String?] in [n == 250_000 ? "not a number" : String(n)] }
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY numbers FROM STDIN", rows: rows)
        }
        #expect(error.sqlState == "22P02")
        #expect(error.message.contains("not a number"))
        #expect(try connection.query("SELECT count(*) FROM numbers").rows == [["0"]])
    }

    @Test func statementThatIsNotCopyFromStdinIsRefused() throws {
        let connection = try connect()
        for sql in ["SELECT 1", "COPY (SELECT 1) TO STDOUT"] {
            let error = try #require(throws: PostgresError.self) {
                try connection.copyIn(sql, rows: [["1"]])
            }
            #expect(error.message == "the statement is not a COPY … FROM STDIN")
        }
        let missing = try #require(throws: PostgresError.self) {
            try connection.copyIn("COPY no_such_table FROM STDIN", rows: [["1"]])
        }
        #expect(missing.sqlState == "42P01")
        #expect(try connection.query("SELECT 2").rows == [["2"]])
    }
}
