import Foundation
import RMapSQLite
import Testing

@Suite("SQLite errors")
struct SQLiteErrorTests {
    typealias F = StoreFixtures

    /// A path for a new SQLite file in a fresh temporary folder.
    private func file(_ name: String) throws -> String {
        try F.temporaryDirectory().appendingPathComponent(name).path
    }

    @Test("a duplicate primary key is a constraint error; the message keeps SQLite's number")
    func constraint() throws {
        let connection = try SQLiteConnection(path: try file("constraint.sqlite"))
        try connection.execute("CREATE TABLE people (id INTEGER PRIMARY KEY)")
        try connection.execute("INSERT INTO people (id) VALUES (1)")
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO people (id) VALUES (1)")
        }
        #expect(error.code == .constraint)
        #expect(error.code.rawValue == 19 && error.resultCode & 0xFF == 19)
        #expect(
            error.description
                == "SQLite error \(error.resultCode): UNIQUE constraint failed: people.id (in INSERT INTO people (id) VALUES (1))"
        )
    }

    @Test("a file that is not a database")
    func notADatabase() throws {
        let path = try file("text.sqlite")
        try Data(String(repeating: "not a database\n", count: 20).utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) {
            try SQLiteConnection(path: path).execute("SELECT count(*) FROM sqlite_master")
        }
        #expect(error.code == .notADatabase)
    }

    @Test("a lock held past the busy timeout is a busy error that says so")
    func busy() throws {
        let path = try file("busy.sqlite")
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE t (x INTEGER)")
        try holder.execute("BEGIN IMMEDIATE")
        let waiter = try SQLiteConnection(path: path, busyTimeout: .milliseconds(10))
        let error = try #require(throws: SQLiteError.self) { try waiter.execute("BEGIN IMMEDIATE") }
        #expect(error.code == .busy)
        #expect(error.message.contains("busy timeout"))
        try holder.execute("ROLLBACK")
    }
}
