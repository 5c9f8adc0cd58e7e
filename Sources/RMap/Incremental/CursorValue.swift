/// A cursor as the run-state table keeps it (JSON: a number for integer and
/// decimal cursors, a string otherwise) and as a request sends it.
enum CursorValue {
    /// The stored form of `value`, or `nil` for a value that cannot be a cursor (null, bool, array...).
    static func json(_ value: Value) -> JSONValue? {
        switch value {
        case .int(let number): .number(String(number))
        case .decimal(let number): .number(number.description)
        case .double(let number) where number.isFinite: .number(String(number))
        case .string(let text): .string(text)
        case .date(let date): .string(date.description)
        case .datetime(let timestamp): .string(timestamp.description)
        default: nil
        }
    }

    /// The value of a stored cursor of a `type` attribute, for comparing with new ones.
    static func value(_ stored: JSONValue, type: AttributeType) -> Value? {
        switch (stored, type) {
        case (.number(let text), .int): Int64(text).map(Value.int)
        case (.number(let text), _): DecimalNumber(text).map(Value.decimal)
        case (.string(let text), .datetime): ISO8601Text.timestamp(text).map(Value.datetime)
        case (.string(let text), .date):
            ISO8601Text.timestamp(text).map { .date(LocalDate(daysSinceEpoch: Int($0.milliseconds / 86_400_000))) }
        case (.string(let text), _): .string(text)
        default: nil
        }
    }

    /// The parameter text of a stored cursor of a `type` attribute: `lag` seconds earlier, in `format`.
    static func parameter(_ stored: JSONValue, type: AttributeType, sync: IncrementalSync) -> String? {
        let text: String
        switch stored {
        case .string(let string): text = string
        case .number(let number): text = number
        default: return nil
        }
        switch type {
        case .datetime:
            guard let timestamp = ISO8601Text.timestamp(text) else { return text }
            let earlier = Timestamp(milliseconds: timestamp.milliseconds - Int64(sync.lag) * 1000)
            return sync.format.map { written(earlier, $0) } ?? earlier.description
        case .date:
            guard let timestamp = ISO8601Text.timestamp(text) else { return text }
            // A lag of part of a day re-reads the whole day before.
            let days = (sync.lag + 86_399) / 86_400
            let earlier = Timestamp(milliseconds: timestamp.milliseconds - Int64(days) * 86_400_000)
            return sync.format.map { written(earlier, $0) }
                ?? LocalDate(daysSinceEpoch: Int(earlier.milliseconds / 86_400_000)).description
        default:
            return text
        }
    }
}

extension CursorValue {
    /// `timestamp` in `format`: `strftime`-like when it holds `%`, otherwise as an attribute's
    /// `format:` (`iso8601`, `epoch_s`, `epoch_ms` or a Unicode pattern such as `yyyy-MM-dd HH:mm`).
    static func written(_ timestamp: Timestamp, _ format: String) -> String {
        if format.contains("%") { return Strftime.format(timestamp, format) }
        switch ValueConverter.json(from: .datetime(timestamp), format: TimeFormat(name: format)) {
        case .string(let text), .number(let text): return text
        default: return timestamp.description
        }
    }
}

/// A small `strftime`: `%Y %m %d %H %M %S` (zero-padded), `%L` (milliseconds),
/// `%s` (seconds since 1970), `%z` (`+0000`), `%%`; always UTC.
enum Strftime {
    /// `timestamp` written in `format`.
    static func format(_ timestamp: Timestamp, _ format: String) -> String {
        let (days, inDay) = timestamp.milliseconds.quotientAndRemainderFloored(dividingBy: 86_400_000)
        let date = LocalDate(daysSinceEpoch: Int(days))
        let ms = Int(inDay)
        var output = ""
        var escaped = false
        for character in format {
            guard escaped else {
                if character == "%" { escaped = true } else { output.append(character) }
                continue
            }
            escaped = false
            switch character {
            case "Y": output += LocalDate.pad(date.year, 4)
            case "m": output += LocalDate.pad(date.month, 2)
            case "d": output += LocalDate.pad(date.day, 2)
            case "H": output += LocalDate.pad(ms / 3_600_000, 2)
            case "M": output += LocalDate.pad(ms / 60_000 % 60, 2)
            case "S": output += LocalDate.pad(ms / 1000 % 60, 2)
            case "L": output += LocalDate.pad(ms % 1000, 3)
            case "s": output += String(timestamp.milliseconds.quotientAndRemainderFloored(dividingBy: 1000).0)
            case "z": output += "+0000"
            case "%": output += "%"
            default: output += "%\(character)"
            }
        }
        return output
    }
}
