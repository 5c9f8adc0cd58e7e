import Foundation

/// Converts payload JSON into typed ``Value``s, and typed values back into
/// payload JSON: the one place where the types of MAPPING.md §2.1 are read
/// and written.
public enum ValueConverter {
    /// The value `json` denotes as `type`, or `nil` when it cannot become that type.
    ///
    /// `null` is `.null` for every type. Strings are accepted for numbers,
    /// decimals and booleans (`"12.50"`, `"true"`), numbers `1`/`0` for booleans.
    /// Never converted, so that every store keeps the same values: a number
    /// out of `Double`'s range (`1e999`) as a double or a time, and text holding
    /// U+0000 (NUL, which PostgreSQL cannot store), as a string or anywhere in `json`.
    ///
    /// `booleans` are the texts a `bool` reads (``BooleanWords/standard`` when `nil`).
    ///
    /// - Complexity: O(size of `json`).
    public static func value(
        from json: JSONValue, as type: AttributeType, format: TimeFormat? = nil, booleans: BooleanWords? = nil
    ) -> Value? {
        if case .null = json { return .null }
        switch type {
        case .uuid:
            // UUIDs are case-insensitive; the lower-case form is canonical (and what PostgreSQL returns).
            guard case .string(let text) = json, !holdsNUL(text) else { return nil }
            return .string(text.lowercased())
        case .string, .url:
            switch json {
            case .string(let text): return holdsNUL(text) ? nil : .string(text)
            case .number(let text): return .string(text)
            case .bool(let flag): return .string(flag ? "true" : "false")
            default: return nil
            }
        case .int:
            switch json {
            case .number(let text), .string(let text): return integer(text).map(Value.int)
            default: return nil
            }
        case .double:
            switch json {
            case .number(let text), .string(let text):
                return finite(text.trimmingCharacters(in: .whitespaces)).map(Value.double)
            default: return nil
            }
        case .decimal:
            switch json {
            case .number(let text), .string(let text): return DecimalNumber(text).map(Value.decimal)
            default: return nil
            }
        case .bool:
            return bool(json, words: booleans ?? .standard).map(Value.bool)
        case .date:
            return date(json, format: format).map(Value.date)
        case .datetime:
            return timestamp(json, format: format ?? .iso8601).map(Value.datetime)
        case .json:
            return holdsNUL(json) ? nil : .json(json)
        case .array(let element):
            guard case .array(let items) = json else { return nil }
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = value(from: item, as: element, format: format, booleans: booleans) else {
                    return nil
                }
                values.append(value)
            }
            return .array(values)
        }
    }

    /// The payload JSON for a value (what a push sends).
    public static func json(from value: Value, format: TimeFormat? = nil) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(String(number))
        case .double(let number): return .number(number.isFinite ? "\(number)" : "null")
        case .decimal(let number): return .string(number.text)
        case .string(let text): return .string(text)
        case .date(let date):
            switch format {
            case .pattern(let pattern, let zone):
                // Midnight of the day in the pattern's zone, as the pattern read it.
                let formatter = PatternFormatters.shared.formatter(for: pattern, timeZone: zone)
                let utc = Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400)
                return .string(
                    formatter.string(from: utc.addingTimeInterval(-Double(formatter.timeZone.secondsFromGMT(for: utc))))
                )
            case .epochSeconds, .epochMilliseconds, .dotnet:
                // Midnight UTC, whose UTC day a read keeps.
                return json(
                    from: .datetime(Timestamp(milliseconds: Int64(date.daysSinceEpoch) * 86_400_000)), format: format)
            case .iso8601, nil: return .string(date.description)
            }
        case .datetime(let stamp):
            switch format {
            case .epochSeconds: return .number(String(stamp.milliseconds / 1000))
            case .epochMilliseconds: return .number(String(stamp.milliseconds))
            case .dotnet: return .string(DotNetDate.text(stamp))
            case .pattern(let pattern, let zone):
                let date = Date(timeIntervalSince1970: Double(stamp.milliseconds) / 1000)
                return .string(PatternFormatters.shared.formatter(for: pattern, timeZone: zone).string(from: date))
            case .iso8601, nil: return .string(stamp.description)
            }
        case .array(let items): return .array(items.map { json(from: $0, format: format) })
        case .json(let json): return json
        }
    }

    // MARK: - Scalars

    /// The double of `text`, or `nil` when it is not a number or lies out of range (`1e999`).
    static func finite(_ text: String) -> Double? {
        Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// True when `text` holds U+0000.
    static func holdsNUL(_ text: String) -> Bool {
        text.utf8.contains(0)
    }

    /// True when a string or key anywhere in `json` holds U+0000 (a walk as deep
    /// as the value, which parsing holds to ``JSONReader/maxDepth``).
    static func holdsNUL(_ json: JSONValue) -> Bool {
        switch json {
        case .string(let text): holdsNUL(text)
        case .array(let items): items.contains { holdsNUL($0) }
        case .object(let object): object.members.contains { holdsNUL($0.key) || holdsNUL($0.value) }
        case .null, .bool, .number: false
        }
    }

    static func integer(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int64(trimmed) { return value }
        // A whole number written with a fraction or exponent (`3.0`, `1e3`).
        guard let number = DecimalNumber(trimmed), !number.canonical.contains(".") else { return nil }
        return Int64(number.canonical)
    }

    /// JSON `true`/`false`, or a number or string whose text `words` lists.
    static func bool(_ json: JSONValue, words: BooleanWords) -> Bool? {
        switch json {
        case .bool(let flag): flag
        case .number(let text), .string(let text): words.bool(for: text)
        default: nil
        }
    }

    static func date(_ json: JSONValue, format: TimeFormat?) -> LocalDate? {
        switch (json, format) {
        case (.string(let text), .pattern(let pattern, let zone)):
            let formatter = PatternFormatters.shared.formatter(for: pattern, timeZone: zone)
            guard let date = formatter.date(from: text) else { return nil }
            // The day the pattern read, in its zone: midnight in Berlin is 23:00 UTC the day before.
            let local = date.timeIntervalSince1970 + Double(formatter.timeZone.secondsFromGMT(for: date))
            return LocalDate(daysSinceEpoch: Int((local / 86_400).rounded(.down)))
        case (.string, .dotnet?):
            return timestamp(json, format: .dotnet).map(\.utcDay)
        case (.string(let text), _):
            if let date = LocalDate(iso: text) { return date }
            // A full timestamp given for a date keeps its UTC calendar day.
            return ISO8601Text.timestamp(text).map(\.utcDay)
        case (.number, .epochSeconds?), (.number, .epochMilliseconds?):
            // A number is a date only when `format:` says what it counts: `1500` is no year.
            return timestamp(json, format: format ?? .epochSeconds).map(\.utcDay)
        default:
            return nil
        }
    }

    static func timestamp(_ json: JSONValue, format: TimeFormat) -> Timestamp? {
        switch (json, format) {
        case (.number(let text), .epochSeconds), (.string(let text), .epochSeconds):
            guard let seconds = Double(text), let milliseconds = Int64(exactly: (seconds * 1000).rounded()) else {
                return nil
            }
            return Timestamp(milliseconds: milliseconds)
        case (.number(let text), .epochMilliseconds), (.string(let text), .epochMilliseconds):
            guard let milliseconds = Double(text).flatMap({ Int64(exactly: $0.rounded()) }) else { return nil }
            return Timestamp(milliseconds: milliseconds)
        case (.string(let text), .pattern(let pattern, let zone)):
            guard let date = PatternFormatters.shared.formatter(for: pattern, timeZone: zone).date(from: text) else {
                return nil
            }
            return Timestamp(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case (.string(let text), .dotnet):
            return DotNetDate.timestamp(text)
        case (.string(let text), .iso8601):
            return ISO8601Text.timestamp(text)
        default:
            return nil
        }
    }
}

/// Date formatters for `format:` patterns, one per pattern and time zone.
final class PatternFormatters: Sendable {
    static let shared = PatternFormatters()
    private let formatters = Locked<[String: DateFormatter]>([:])

    /// The formatter of `pattern`, reading and writing in the zone `timeZone` names (`nil`: UTC).
    func formatter(for pattern: String, timeZone: String? = nil) -> DateFormatter {
        let zone = timeZone ?? "UTC"
        return formatters.withLock { cache in
            let key = "\(zone) \(pattern)"
            if let formatter = cache[key] { return formatter }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            cache[key] = formatter
            return formatter
        }
    }
}
