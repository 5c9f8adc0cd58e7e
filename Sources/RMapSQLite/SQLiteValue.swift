/// A value as SQLite stores it: one of its five storage classes.
///
/// What ``SQLiteConnection/query(_:_:)`` returns, so that callers see the
/// stored form itself (`TEXT "12.50"`, `INTEGER 1`).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
