import RMapPostgres
import Testing

@Suite("PostgresError")
struct PostgresErrorTests {
    @Test func badSQLCarriesSQLStateAndEndpoint() throws {
        let connection = try PostgresConnection(url: PostgresServer.url())
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELEC 1") }
        #expect(error.operation == .execute)
        #expect(error.sqlState == "42601")
        #expect(error.message.contains("syntax error"))
        #expect(
            error.description.hasPrefix(
                "PostgreSQL statement failed with SQLSTATE 42601 on database \"rmap_test\" on 127.0.0.1:"))
        let missing = try #require(throws: PostgresError.self) {
            try connection.query("SELECT * FROM no_such_table WHERE id = $1", ["1"])
        }
        #expect(missing.sqlState == "42P01")
        #expect(missing.description.contains(#"relation "no_such_table" does not exist"#))
        #expect(try connection.query("SELECT 1").rows == [["1"]])
    }

    @Test func unreachableServerNamesHostPortDatabaseButNoPassword() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(url: "postgres://rmap:hunter2-unreachable@127.0.0.1:1/rmap_test?connect_timeout=5")
        }
        #expect(error.operation == .connect)
        #expect(error.endpoint == PostgresEndpoint(host: "127.0.0.1", port: "1", database: "rmap_test", user: "rmap"))
        #expect(error.description.contains(#"database "rmap_test" on 127.0.0.1:1 as user "rmap""#))
        #expect(error.description.contains("Connection refused"))
        #expect(!String(reflecting: error).contains("hunter2"))
    }

    @Test func wrongPasswordIsReportedWithoutAnyPassword() throws {
        let good = try PostgresServer.passwordURL()
        #expect(good.contains(":s3cret@"))
        #expect(try PostgresConnection(url: good).query("SELECT current_user").rows == [["rmap"]])
        let wrong = good.replacing(":s3cret@", with: ":wrong-pa55word@")
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: wrong) }
        #expect(error.description.contains("password authentication failed"))
        #expect(error.description.contains("rmap_test"))
        #expect(!String(reflecting: error).contains("wrong-pa55word"))
        #expect(!String(reflecting: error).contains("s3cret"))
    }

    @Test func passwordQuotedByLibpqIsRemoved() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(url: "postgres://rmap:s3cr%zzet@127.0.0.1:1/rmap_test")
        }
        #expect(error.operation == .connect)
        #expect(error.message == #"invalid percent-encoded token: "***""#)
        #expect(!String(reflecting: error).contains("s3cr"))
    }
}
