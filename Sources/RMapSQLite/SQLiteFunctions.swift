internal import CSQLite
import RMap

/// The SQL functions rmap's statements call on SQLite, for the comparisons SQLite's own
/// cannot make: decimals are kept as the text received (`"12.50"`), so two decimals are the
/// same value when their numbers are equal, not their text (docs/mapping.md, "Types").
///
/// - `rmap_same_decimal(a, b)`: 1 when both are null, or both decimals of equal value, or
///   both the same text that is no decimal; 0 otherwise.
/// - `rmap_number_key(x)`: the key connecting compares a stored decimal or double by
///   (docs/mapping.md, "Matching", ``CanonicalKey``): the number's canonical text (`3`, `12.5`),
///   null for null or text that is no number.
enum SQLiteFunctions {
    static func register(on connection: SQLiteConnection) throws {
        try connection.register(function: "rmap_same_decimal", arguments: 2) { context, _, arguments in
            guard let arguments else { return }
            let left = SQLiteFunctions.text(arguments[0])
            let right = SQLiteFunctions.text(arguments[1])
            let same: Bool =
                switch (left, right) {
                case (nil, nil): true
                case (let left?, let right?):
                    left == right
                        || DecimalNumber(left).flatMap { number in DecimalNumber(right).map { number == $0 } }
                            ?? false
                default: false
                }
            sqlite3_result_int(context, same ? 1 : 0)
        }
        try connection.register(function: "rmap_number_key", arguments: 1) { context, _, arguments in
            guard let arguments else { return }
            let key: Value? =
                switch sqlite3_value_type(arguments[0]) {
                case SQLITE_INTEGER: CanonicalKey.value(.int(sqlite3_value_int64(arguments[0])), in: .number)
                case SQLITE_FLOAT: CanonicalKey.value(.double(sqlite3_value_double(arguments[0])), in: .number)
                case SQLITE_TEXT:
                    SQLiteFunctions.text(arguments[0]).flatMap(DecimalNumber.init).flatMap {
                        CanonicalKey.value(.decimal($0), in: .number)
                    }
                default: nil
                }
            if case .string(let text)? = key {
                sqlite3_result_text(context, text, -1, SQLiteFunctions.transient)
            } else {
                sqlite3_result_null(context)
            }
        }
    }

    /// SQLite's marker that a result's bytes must be copied.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// An argument's text; `nil` for null.
    static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        return String(cString: bytes)
    }
}
