internal import CSQLite
import RMap

/// SQLite's marker that a bound buffer must be copied.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement: binds ``Value``s in their stored forms (MAPPING.md §5)
/// and reads columns back as the ``Value`` of a column type.
///
/// Owns its `sqlite3_stmt` and finalizes it in `deinit`. Not `Sendable`: used
/// only by the connection that prepared it.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: OpaquePointer
    let sql: String
    /// Whether the statement inserts, updates or deletes rows of a table outside the connection's
    /// temporary database (seen by an authorizer while it was prepared).
    let writesStore: Bool

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let writes = WriteWatch()
        let watch = Unmanaged.passUnretained(writes).toOpaque()
        sqlite3_set_authorizer(
            database,
            { context, action, _, _, schema, _ in
                if action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE,
                    let schema, String(cString: schema) != "temp", let context
                {
                    Unmanaged<WriteWatch>.fromOpaque(context).takeUnretainedValue().writesStore = true
                }
                return SQLITE_OK
            }, watch)
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        sqlite3_set_authorizer(database, nil, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)), sql: sql)
        }
        handle = statement
        self.database = database
        self.sql = sql
        writesStore = writes.writesStore
    }

    /// What the authorizer saw while a statement was prepared.
    private final class WriteWatch {
        var writesStore = false
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Resets the statement and binds `values` from parameter 1.
    func bind(_ values: some Collection<Value>) {
        sqlite3_reset(handle)
        var index: Int32 = 1
        for value in values {
            bind(value, at: index)
            index += 1
        }
    }

    /// Resets the statement and binds the rows' values one after another from parameter 1 (a multi-row `VALUES`).
    func bind(rows: ArraySlice<[Value]>) {
        sqlite3_reset(handle)
        var index: Int32 = 1
        for row in rows {
            for value in row {
                bind(value, at: index)
                index += 1
            }
        }
    }

    /// Binds one value; indexes start at 1.
    func bind(_ value: Value, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .bool(let flag): sqlite3_bind_int64(handle, index, flag ? 1 : 0)
        case .int(let number): sqlite3_bind_int64(handle, index, number)
        case .double(let number): sqlite3_bind_double(handle, index, number)
        case .decimal(let number): bind(text: number.text, at: index)
        case .string(let text): bind(text: text, at: index)
        case .date(let date): bind(date: date, milliseconds: nil, at: index)
        case .datetime(let stamp):
            let (days, milliseconds) = stamp.milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
            let (day, inDay) = milliseconds < 0 ? (days - 1, milliseconds + 86_400_000) : (days, milliseconds)
            bind(date: LocalDate(daysSinceEpoch: Int(day)), milliseconds: Int(inDay), at: index)
        case .array, .json: bind(text: ValueText.display(value), at: index)
        }
    }

    func bind(int number: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, number)
    }

    /// Binds `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS.sssZ` with the milliseconds into the day,
    /// formatted in place (a bulk write binds one per row).
    private func bind(date: LocalDate, milliseconds: Int?, at index: Int32) {
        guard (0...9999).contains(date.year) else { return bind(text: fallback(date, milliseconds), at: index) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var position = 0
            func put(_ number: Int, _ width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                for _ in 0..<width {
                    buffer[position] = UInt8(48 + number / divisor % 10)
                    position += 1
                    divisor /= 10
                }
            }
            func put(_ character: Character) {
                buffer[position] = character.asciiValue!
                position += 1
            }
            put(date.year, 4)
            put("-")
            put(date.month, 2)
            put("-")
            put(date.day, 2)
            if let milliseconds {
                put("T")
                put(milliseconds / 3_600_000, 2)
                put(":")
                put(milliseconds / 60_000 % 60, 2)
                put(":")
                put(milliseconds / 1000 % 60, 2)
                put(".")
                put(milliseconds % 1000, 3)
                put("Z")
            }
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: position) {
                _ = sqlite3_bind_text(handle, index, $0, Int32(position), transient)
            }
        }
    }

    private func fallback(_ date: LocalDate, _ milliseconds: Int?) -> String {
        guard let milliseconds else { return date.description }
        return Timestamp(milliseconds: Int64(date.daysSinceEpoch) * 86_400_000 + Int64(milliseconds)).description
    }

    private func bind(text: String, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            if bytes.isEmpty {
                sqlite3_bind_text(handle, index, "", 0, transient)
            } else {
                bytes.withMemoryRebound(to: CChar.self) {
                    _ = sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient)
                }
            }
        }
    }

    // MARK: - Stepping

    /// Runs the statement to completion.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Advances to the next row; false when done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)), sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Ends the current run, releasing the read lock an unfinished query holds.
    func reset() {
        sqlite3_reset(handle)
    }

    // MARK: - Reading

    var columnCount: Int32 { sqlite3_column_count(handle) }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(unsafeUninitializedCapacity: count) { buffer in
            _ = buffer.initialize(from: UnsafeBufferPointer(start: bytes, count: count))
            return count
        }
    }

    /// The column as the ``Value`` of `type`; a stored form that does not parse is returned as text.
    func value(_ column: Int32, as type: AttributeType) -> Value {
        guard !isNull(column) else { return .null }
        switch type {
        case .int: return .int(sqlite3_column_int64(handle, column))
        case .double: return .double(sqlite3_column_double(handle, column))
        case .bool: return .bool(sqlite3_column_int64(handle, column) != 0)
        case .string, .url, .uuid: return .string(text(column))
        case .decimal:
            let text = text(column)
            return DecimalNumber(text).map(Value.decimal) ?? .string(text)
        case .date:
            let text = text(column)
            return LocalDate(iso: text).map(Value.date) ?? .string(text)
        case .datetime:
            let text = text(column)
            return ValueConverter.value(from: .string(text), as: .datetime) ?? .string(text)
        case .array, .json:
            let text = text(column)
            guard let json = try? JSONReader.parse(text, origin: "column"),
                let value = ValueConverter.value(from: json, as: type)
            else { return .string(text) }
            return value
        }
    }

    /// The column in its storage class.
    func raw(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
