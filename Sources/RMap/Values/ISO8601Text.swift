/// Reads ISO 8601 date-times: `2024-01-02T03:04:05`, with an optional
/// fraction (kept to milliseconds) and an optional zone (`Z`, `+01:00`,
/// `+0100`, `+01`); no zone means UTC. A space may stand for the `T`.
enum ISO8601Text {
    static func timestamp(_ text: String) -> Timestamp? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
            let day = scanner.number(2), let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        var milliseconds = Int64(date.daysSinceEpoch) * 86_400_000
        if scanner.atEnd { return Timestamp(milliseconds: milliseconds) }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.number(2), hour < 24, scanner.skip(":"), let minute = scanner.number(2), minute < 60
        else { return nil }
        var second = 0
        if scanner.skip(":") {
            guard let value = scanner.number(2), value < 61 else { return nil }
            second = value
        }
        milliseconds += Int64((hour * 60 + minute) * 60 + second) * 1000
        if scanner.skip(".") || scanner.skip(",") {
            guard let fraction = scanner.fractionMilliseconds() else { return nil }
            milliseconds += Int64(fraction)
        }
        guard let offset = scanner.zoneOffsetMinutes(), scanner.atEnd else { return nil }
        return Timestamp(milliseconds: milliseconds - Int64(offset) * 60_000)
    }
}

/// A cursor over ASCII digits and separators.
struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }

    /// Steps over `scalar` (ASCII) when it is next; a `Character` here cost a grapheme check a call.
    mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
        guard index < bytes.count, UInt32(bytes[index]) == scalar.value else { return false }
        index += 1
        return true
    }

    mutating func number(_ digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// The digits of a fraction of a second, as whole milliseconds (truncated).
    mutating func fractionMilliseconds() -> Int? {
        var value = 0
        var count = 0
        while index < bytes.count, (48...57).contains(bytes[index]) {
            if count < 3 { value = value * 10 + Int(bytes[index] - 48) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { value *= 10 }
        return value
    }

    /// `Z`, `+HH:MM`, `+HHMM`, `+HH` or nothing (UTC), in minutes east of UTC.
    mutating func zoneOffsetMinutes() -> Int? {
        if atEnd || skip("Z") || skip("z") { return 0 }
        let sign: Int
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(2) else { return nil }
        _ = skip(":")
        let minutes = atEnd ? 0 : number(2)
        guard let minutes else { return nil }
        return sign * (hours * 60 + minutes)
    }
}
