import Foundation

/// A typed attribute value, used alike by the map, connect, store and diff stages.
///
/// `url` and `uuid` attributes hold `.string`; `[T]` attributes hold `.array`;
/// `json` attributes hold `.json` with the payload's value as it was.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// An exact decimal, kept as the digits received (`"12.50"`).
    case decimal(DecimalNumber)
    case string(String)
    case date(LocalDate)
    case datetime(Timestamp)
    case array([Value])
    case json(JSONValue)

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The members of an array value, or the value alone: what a foreign key
    /// connects with (a collection value is an OR over its members).
    public var members: [Value] {
        if case .array(let items) = self { return items }
        return [self]
    }
}

// MARK: - Scalars

/// An exact decimal number, kept as the text received.
///
/// Two decimals are equal when they denote the same number: `12.50 == 12.5`,
/// so a value that the server echoes back with other trailing zeros does not
/// count as a change.
public struct DecimalNumber: Sendable, Hashable, CustomStringConvertible {
    /// The digits as received, e.g. `"12.50"`.
    public let text: String

    /// Creates a decimal from its text, or `nil` when the text is not a decimal number.
    ///
    /// An exponent beyond ±``maximumExponent`` is refused: its canonical form would
    /// run to that many digits.
    public init?(_ text: String) {
        let padded = Self.isPadding(text.utf8.first) || Self.isPadding(text.utf8.last)
        let trimmed = padded ? text.trimmingCharacters(in: .whitespaces) : text
        guard DecimalNumber.isDecimal(trimmed.utf8) else { return nil }
        if let e = trimmed.utf8.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            guard let exponent = Int(trimmed[trimmed.utf8.index(after: e)...]), abs(exponent) <= Self.maximumExponent
            else { return nil }
        }
        self.text = trimmed
    }

    /// True for the first or last byte of text with white space around it (any
    /// non-ASCII byte is checked by the trimming itself).
    private static func isPadding(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) || byte >= 0x80
    }

    /// A decimal from text already checked by ``init(_:)`` (read back from a store of this run).
    init(validated text: String) {
        self.text = text
    }

    /// The largest exponent magnitude accepted (`1e1000`).
    public static let maximumExponent = 1000

    public var description: String { text }

    /// The canonical form: no leading `+`, no superfluous zeros, exponent applied.
    public var canonical: String {
        var text = Substring(self.text)
        var negative = false
        if text.first == "-" || text.first == "+" {
            negative = text.first == "-"
            text = text.dropFirst()
        }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var digits = text.replacingOccurrences(of: ".", with: "")
        var point =
            (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count)
            + exponent
        while point > digits.count { digits.append("0") }
        while point < 1 {
            digits.insert("0", at: digits.startIndex)
            point += 1
        }
        var integer = String(digits.prefix(point)).drop { $0 == "0" }
        var fraction = Substring(digits.dropFirst(point))
        while fraction.last == "0" { fraction = fraction.dropLast() }
        if integer.isEmpty { integer = "0" }
        let body = fraction.isEmpty ? String(integer) : "\(integer).\(fraction)"
        return negative && body != "0" ? "-" + body : body
    }

    /// The nearest double, for stores and comparisons that need one.
    public var double: Double { Double(text) ?? .nan }

    public static func == (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        lhs.text == rhs.text || lhs.canonical == rhs.canonical
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonical)
    }

    /// Whether `bytes` spell an optionally signed number with an optional point and exponent,
    /// in ASCII only (read byte by byte: a record's decimals are parsed on the reading thread).
    private static func isDecimal(_ bytes: String.UTF8View) -> Bool {
        var sawDigit = false
        var sawPoint = false
        var sawExponent = false
        var previous: UInt8 = 0
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard offset == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else {
                    return false
                }
            case UInt8(ascii: "."):
                guard !sawPoint, !sawExponent else { return false }
                sawPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
                sawDigit = false
            default: return false
            }
            previous = byte
        }
        return sawDigit
    }
}

/// A calendar date without time or zone, stored as `YYYY-MM-DD`.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    private var storedYear: Int32
    private var storedMonth: UInt8
    private var storedDay: UInt8

    /// The year (proleptic Gregorian).
    public var year: Int { Int(storedYear) }
    /// The month, 1 to 12.
    public var month: Int { Int(storedMonth) }
    /// The day of the month, from 1.
    public var day: Int { Int(storedDay) }

    /// Creates a date; `nil` when the month or day is out of range.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...LocalDate.days(inMonth: month, year: year)).contains(day),
            let storedYear = Int32(exactly: year)
        else {
            return nil
        }
        self.storedYear = storedYear
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
            let day = scanner.number(2), scanner.atEnd
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        "\(LocalDate.pad(year, 4))-\(LocalDate.pad(month, 2))-\(LocalDate.pad(day, 2))"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days since 1970-01-01 (negative before), by the proleptic Gregorian calendar.
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        storedYear = Int32(truncatingIfNeeded: yoe + era * 400 + (month <= 2 ? 1 : 0))
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(abs(number))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return number < 0 ? "-" + padded : padded
    }
}

/// An instant in UTC at millisecond precision, stored as `YYYY-MM-DDTHH:MM:SS.sssZ`.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    /// Creates a timestamp.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The calendar day in UTC.
    var utcDay: LocalDate {
        LocalDate(daysSinceEpoch: Int(milliseconds.quotientAndRemainderFloored(dividingBy: 86_400_000).0))
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var description: String {
        let (days, inDay) = milliseconds.quotientAndRemainderFloored(dividingBy: 86_400_000)
        let date = LocalDate(daysSinceEpoch: Int(days))
        let ms = Int(inDay)
        let time =
            "\(LocalDate.pad(ms / 3_600_000, 2)):\(LocalDate.pad(ms / 60_000 % 60, 2)):"
            + "\(LocalDate.pad(ms / 1000 % 60, 2)).\(LocalDate.pad(ms % 1000, 3))"
        return "\(date)T\(time)Z"
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}

extension Int64 {
    /// Division rounding toward negative infinity, with a non-negative remainder.
    func quotientAndRemainderFloored(dividingBy divisor: Int64) -> (Int64, Int64) {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}
