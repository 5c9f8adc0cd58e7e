/// A scalar value as connecting compares it for equality.
///
/// Numbers compare by value whatever their representation: `int 1`,
/// `decimal "1.0"`, `double 1.0` and the string `"1"` are one key. A string
/// counts as a number only when it is written the way the number prints
/// (`"42"`, `"12.5"`), so distinct strings never become equal (`"042"` stays
/// text). Dates, datetimes and booleans compare as themselves; JSON values by
/// their structure.
enum MatchKey: Hashable {
    /// A whole number within `Int64`.
    case integer(Int64)
    /// Any other number, as canonical decimal text (`12.5`, `100000000000000000000`).
    case number(String)
    case text(String)
    case flag(Bool)
    case date(LocalDate)
    case datetime(Timestamp)
    /// JSON values, arrays and numbers that are not finite: equal only to themselves.
    case other(Value)

    /// The key of a value; `nil` for `.null`, which matches nothing.
    init?(_ value: Value) {
        switch value {
        case .null: return nil
        case .int(let number): self = .integer(number)
        case .decimal(let number): self = MatchKey(canonical: number.canonical)
        case .double(let number): self = MatchKey(number) ?? .other(value)
        case .string(let text): self = MatchKey(numericText: text) ?? .text(text)
        case .bool(let flag): self = .flag(flag)
        case .date(let date): self = .date(date)
        case .datetime(let stamp): self = .datetime(stamp)
        case .array, .json: self = .other(value)
        }
    }

    private init(canonical: String) {
        if !canonical.contains("."), let number = Int64(canonical) {
            self = .integer(number)
        } else {
            self = .number(canonical)
        }
    }

    private init?(_ number: Double) {
        guard number.isFinite else { return nil }
        if number == number.rounded(), let whole = Int64(exactly: number) {
            self = .integer(whole)
        } else if let decimal = DecimalNumber("\(number)") {
            self = MatchKey(canonical: decimal.canonical)
        } else {
            return nil
        }
    }

    /// A number for text written exactly as the number prints.
    private init?(numericText text: String) {
        guard let first = text.utf8.first,
            first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return nil }
        if let number = Int64(text) {
            guard String(number) == text else { return nil }
            self = .integer(number)
            return
        }
        guard let decimal = DecimalNumber(text), decimal.canonical == text else { return nil }
        self = MatchKey(canonical: text)
    }
}
