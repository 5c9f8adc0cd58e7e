import RMapPostgres
import Testing

@Suite("PostgresConnection")
struct PostgresConnectionTests {
    private func connect() throws -> PostgresConnection {
        try PostgresConnection(url: PostgresServer.url())
    }

    @Test func connectsAndReportsWhereAndWhichServer() throws {
        let connection = try connect()
        #expect(connection.endpoint.host == "127.0.0.1")
        #expect(connection.endpoint.database == "rmap_test")
        #expect(connection.endpoint.user == "postgres")
        #expect(connection.serverVersion >= 100_000)
        let version = try connection.query("SHOW server_version_num").rows
        #expect(version == [[String(connection.serverVersion)]])
    }

    @Test func executeRunsSeveralStatementsAndQueryReturnsRows() throws {
        let connection = try connect()
        try connection.execute(
            """
            CREATE TEMP TABLE people (id int PRIMARY KEY, name text);
            INSERT INTO people VALUES (1, 'Ada'), (2, 'Grace');
            """
        )
        let result = try connection.query("SELECT id, name FROM people ORDER BY id")
        #expect(result.columns == ["id", "name"])
        #expect(result.rows == [["1", "Ada"], ["2", "Grace"]])
        #expect(result.commandTag == "SELECT 2")
        #expect(result.affectedRows == 2)
    }

    @Test func parametersCarryNullAndUnicodeExactly() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE notes (id int, body text)")
        let bodies: [String?] = ["Zoë 東京 🚀", nil, "", "quote ' and \" and \\ and $1", "line\nbreak\ttab"]
        for (id, body) in bodies.enumerated() {
            let insert = try connection.query("INSERT INTO notes VALUES ($1, $2)", [String(id), body])
            #expect(insert.affectedRows == 1)
        }
        let rows = try connection.query("SELECT body, body IS NULL FROM notes ORDER BY id").rows
        #expect(rows.map { $0[0] } == bodies)
        #expect(rows.map { $0[1] } == ["f", "t", "f", "f", "f"])
        let echoed = try connection.query("SELECT $1::text, length($1::text)", ["Zoë 🚀"]).rows
        #expect(echoed == [["Zoë 🚀", "5"]])
    }

    @Test func parameterWithNulCharacterIsRefused() throws {
        let connection = try connect()
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELECT $1::text", ["a\u{0}b"])
        }
        #expect(error.message.contains("$1 contains a NUL character"))
    }

    @Test func preparedStatementsRunManyTimes() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE tags (id int, label text)")
        try connection.prepare(name: "insert_tag", sql: "INSERT INTO tags VALUES ($1, $2)")
        for id in 1...3 {
            try connection.executePrepared(name: "insert_tag", params: [String(id), id == 2 ? nil : "tag \(id)"])
        }
        try connection.prepare(name: "tag_label", sql: "SELECT label FROM tags WHERE id = $1")
        #expect(try connection.executePrepared(name: "tag_label", params: ["3"]).rows == [["tag 3"]])
        #expect(try connection.executePrepared(name: "tag_label", params: ["2"]).rows == [[nil]])
        let duplicate = try #require(throws: PostgresError.self) {
            try connection.prepare(name: "tag_label", sql: "SELECT 1")
        }
        #expect(duplicate.operation == .prepare("tag_label"))
        #expect(duplicate.sqlState == "42P05")
    }

    @Test func quotedIdentifiersNameAnyTable() throws {
        let connection = try connect()
        let name = #"odd "name"; DROP TABLE x"#
        #expect(PostgresConnection.quoteIdentifier(name) == #""odd ""name""; DROP TABLE x""#)
        let table = PostgresConnection.quoteIdentifier(name)
        try connection.execute("CREATE TEMP TABLE \(table) (v int); INSERT INTO \(table) VALUES (7)")
        #expect(try connection.query("SELECT v FROM \(table)").rows == [["7"]])
        let created = try connection.query("SELECT relname FROM pg_class WHERE relname = $1", [name])
        #expect(created.rows == [[name]])
    }

    @Test func copyThroughExecuteIsRefusedAndConnectionStaysUsable() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE t (v int)")
        for sql in ["COPY t FROM STDIN", "COPY (SELECT 1) TO STDOUT"] {
            let error = try #require(throws: PostgresError.self) { try connection.execute(sql) }
            #expect(error.message.contains("copyIn"))
        }
        #expect(try connection.query("SELECT count(*) FROM t").rows == [["0"]])
    }
}
