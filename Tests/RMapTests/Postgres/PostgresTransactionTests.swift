import RMapPostgres
import Testing

@Suite("PostgresConnection transactions")
struct PostgresTransactionTests {
    private struct Abort: Error {}

    private func connectWithTable() throws -> PostgresConnection {
        let connection = try PostgresConnection(url: PostgresServer.url())
        try connection.execute("CREATE TEMP TABLE items (id int PRIMARY KEY)")
        return connection
    }

    private func ids(_ connection: PostgresConnection) throws -> [String?] {
        try connection.query("SELECT id FROM items ORDER BY id").rows.map { $0[0] }
    }

    @Test func commitsWhenBodyReturns() throws {
        let connection = try connectWithTable()
        let value = try connection.transaction {
            try connection.execute("INSERT INTO items VALUES (1)")
            return 42
        }
        #expect(value == 42)
        #expect(try ids(connection) == ["1"])
    }

    @Test func rollsBackWhenBodyThrows() throws {
        let connection = try connectWithTable()
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO items VALUES (1)")
                throw Abort()
            }
        }
        #expect(try ids(connection) == [])
    }

    @Test func rollsBackWhenAStatementFails() throws {
        let connection = try connectWithTable()
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO items VALUES (1)")
                try connection.execute("INSERT INTO items VALUES (1)")
            }
        }
        #expect(error.sqlState == "23505")
        #expect(try ids(connection) == [])
    }

    @Test func reportsRollbackWhenBodySwallowsAFailure() throws {
        let connection = try connectWithTable()
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO items VALUES (1)")
                _ = try? connection.execute("INSERT INTO items VALUES (1)")
            }
        }
        #expect(error.operation == .transaction)
        #expect(error.message.contains("rolled it back"))
        #expect(try ids(connection) == [])
    }

    @Test func nestedTransactionUndoesOnlyItsOwnWork() throws {
        let connection = try connectWithTable()
        try connection.transaction {
            try connection.execute("INSERT INTO items VALUES (1)")
            #expect(throws: Abort.self) {
                try connection.transaction {
                    try connection.execute("INSERT INTO items VALUES (2)")
                    throw Abort()
                }
            }
            try connection.transaction {
                try connection.execute("INSERT INTO items VALUES (3)")
            }
        }
        #expect(try ids(connection) == ["1", "3"])
    }
}
