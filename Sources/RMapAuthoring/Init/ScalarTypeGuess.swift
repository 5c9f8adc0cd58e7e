import RMap

/// The attribute type that fits every sample value of one key, checked with
/// the converter a run uses (``ValueConverter``), so what is guessed imports.
///
/// Booleans are `bool`; whole numbers `int` (epoch seconds or milliseconds
/// under a `*_at` / `*_on` key are a `datetime` with that format); numbers
/// that all carry the same scale of two or more digits `decimal`, other
/// fractions `double`; strings `date` (`1985-12-10`), `datetime` (ISO 8601 or
/// a known pattern, named as `format:`), `uuid`, `url`, `decimal` when every
/// one is a plain decimal numeral and one has a point (`"1234.50"`), else `string`
/// (URL templates such as `https://api.github.com/users{/user}` stay strings).
struct ScalarTypeGuess: Equatable {
    /// The type.
    var type: AttributeType
    /// A datetime's `format:`; `nil` for ISO 8601 and other types.
    var format: String?

    /// The patterns tried, in order, for datetimes that are not ISO 8601.
    static let datetimePatterns = ["yyyy-MM-dd HH:mm:ss", "yyyy/MM/dd HH:mm:ss", "dd/MM/yyyy HH:mm"]

    /// The guess for `values` (no nulls, arrays or objects) of the key `key`; `nil` for mixed kinds.
    static func guess(_ values: [JSONValue], key: String) -> ScalarTypeGuess? {
        if values.allSatisfy({ if case .bool = $0 { true } else { false } }) { return ScalarTypeGuess(type: .bool) }
        let numbers = values.compactMap { if case .number(let text) = $0 { text } else { nil } }
        if numbers.count == values.count { return number(numbers, key: key) }
        let strings = values.compactMap(\.string)
        if strings.count == values.count { return string(strings) }
        if numbers.count + strings.count == values.count { return ScalarTypeGuess(type: .string) }
        return nil
    }

    private static func number(_ texts: [String], key: String) -> ScalarTypeGuess {
        if texts.allSatisfy({ Int64($0) != nil }) {
            let timeKey = key.hasSuffix("_at") || key.hasSuffix("_on")
            let smallest = texts.compactMap { Int64($0) }.min() ?? 0
            if timeKey, smallest >= 100_000_000_000 { return ScalarTypeGuess(type: .datetime, format: "epoch_ms") }
            if timeKey, smallest >= 100_000_000 { return ScalarTypeGuess(type: .datetime, format: "epoch_s") }
            return ScalarTypeGuess(type: .int)
        }
        return fixedScale(texts) ? ScalarTypeGuess(type: .decimal) : ScalarTypeGuess(type: .double)
    }

    /// True when every numeral is plain (no exponent) with the same scale of at least two digits.
    private static func fixedScale(_ texts: [String]) -> Bool {
        let scales = Set(
            texts.map { text -> Int in
                guard !text.contains(where: { $0 == "e" || $0 == "E" }), let point = text.firstIndex(of: ".") else {
                    return -1
                }
                return text.distance(from: point, to: text.endIndex) - 1
            })
        return scales.count == 1 && (scales.first ?? 0) >= 2
    }

    private static func string(_ texts: [String]) -> ScalarTypeGuess {
        let json = texts.map(JSONValue.string)
        if texts.allSatisfy(isISODate) { return ScalarTypeGuess(type: .date) }
        if texts.allSatisfy(looksTimed), converts(json, .datetime, nil) { return ScalarTypeGuess(type: .datetime) }
        for pattern in datetimePatterns where converts(json, .datetime, .pattern(pattern)) {
            return ScalarTypeGuess(type: .datetime, format: pattern)
        }
        if texts.allSatisfy(isUUID), converts(json, .uuid, nil) { return ScalarTypeGuess(type: .uuid) }
        if texts.allSatisfy({ $0.hasPrefix("http://") || $0.hasPrefix("https://") }), converts(json, .url, nil) {
            return ScalarTypeGuess(type: .url)
        }
        if texts.allSatisfy(isPlainDecimal), texts.contains(where: { $0.contains(".") }) {
            return ScalarTypeGuess(type: .decimal)
        }
        return ScalarTypeGuess(type: .string)
    }

    private static func converts(_ values: [JSONValue], _ type: AttributeType, _ format: TimeFormat?) -> Bool {
        values.allSatisfy { json in
            ValueConverter.value(from: json, as: type, format: format).map { TextShape.isValid($0, as: type) } ?? false
        }
    }

    private static func isISODate(_ text: String) -> Bool {
        text.utf8.count == 10 && LocalDate(iso: text) != nil
    }

    /// `2024-02-13T10:00:00Z`: a date, a `T`, and a time.
    private static func looksTimed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count >= 16 && isISODate(String(decoding: bytes[0..<10], as: UTF8.self))
            && bytes[10] == UInt8(ascii: "T")
    }

    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    private static func isPlainDecimal(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count <= 2
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}
