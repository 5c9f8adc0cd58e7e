import Testing

@testable import RMapPostgres

/// rmap's `?` parameters numbered for PostgreSQL, quoted text left as it is.
@Suite("PostgreSQL placeholders")
struct PostgresPlaceholdersTests {
    @Test(
        "each ? outside quoted text is numbered in order",
        arguments: [
            ("SELECT 1", "SELECT 1"),
            ("a = ? AND b = ?", "a = $1 AND b = $2"),
            (#"SELECT "a?" FROM "t""?" WHERE x = ?"#, #"SELECT "a?" FROM "t""?" WHERE x = $1"#),
            ("x = 'it''s ?' AND y = ?", "x = 'it''s ?' AND y = $1"),
            (#"x = E'\'?' AND y = ?"#, #"x = E'\'?' AND y = $1"#),
            (#"x = '\' AND y = ?"#, #"x = '\' AND y = $1"#),
            ("type = ? -- why?\nAND y = ?", "type = $1 -- why?\nAND y = $2"),
            ("/* ? /* ? */ ? */ x = ?", "/* ? /* ? */ ? */ x = $1"),
            ("AS $rmap$ ? $x$ ? $rmap$ || ?", "AS $rmap$ ? $x$ ? $rmap$ || $1"),
            ("$$?$$, ?", "$$?$$, $1"),
            ("x = $1 OR y = ?", "x = $1 OR y = $1"),
            ("some_e'?' = ?", "some_e'?' = $1"),
            ("'unterminated ?", "'unterminated ?"),
        ])
    func numbered(sql: String, expected: String) {
        #expect(PostgresPlaceholders.numbered(sql) == expected)
    }
}
