/// The kind of values a key attribute holds, which decides how another value is compared with it.
///
/// Connecting never lets SQL's own comparisons decide a match (docs/mapping.md, "Matching"):
/// rmap writes each staged key in its destination's domain (``CanonicalKey``) and the engine
/// compares those forms for equality only. A stored key column is already in its domain's
/// form for `int`, `string`, `url` and `uuid` attributes, so the usual lookup by identity uses
/// the table's own index; the dialect gives the expression for the others
/// (``SQLDialect/keyExpression(_:type:)``).
public enum KeyDomain: Sendable, Hashable {
    /// `int` attributes: keys are whole numbers.
    case integer
    /// `decimal` and `double` attributes: keys are canonical number text (`12.5`, `3`).
    case number
    /// `string`, `url` and `uuid` attributes: text, and numbers as they print.
    case text
    /// `date` attributes.
    case date
    /// `datetime` attributes.
    case datetime
    /// `bool` attributes.
    case flag
    /// `json` and array attributes: equal only to themselves.
    case other

    /// The domain of an attribute type.
    public init(_ type: AttributeType) {
        switch type {
        case .int: self = .integer
        case .decimal, .double: self = .number
        case .string, .url, .uuid: self = .text
        case .date: self = .date
        case .datetime: self = .datetime
        case .bool: self = .flag
        case .json, .array: self = .other
        }
    }

    /// The type of the column that holds keys of this domain: `int` for ``integer``, text otherwise.
    public var columnType: AttributeType { self == .integer ? .int : .string }
}

/// A value's key in a domain: what connecting compares (docs/mapping.md, "Matching").
///
/// `int 1`, `decimal 1.0`, `double 1.0` and the string `"1"` have one key in every domain that
/// holds numbers; `"01"`, `"+1"` and `"1.0"` stay text (a string counts as a number only when
/// written the way the number prints). Dates, date-times and booleans have keys only in their
/// own domain. `null`, and a value of a kind the domain never holds, have none: they match nothing.
///
/// ```swift
/// CanonicalKey.value(.string("1"), in: .integer)   // .int(1)
/// CanonicalKey.value(.string("01"), in: .integer)  // nil
/// CanonicalKey.value(.decimal(DecimalNumber("1.50")!), in: .text)  // .string("1.5")
/// ```
public enum CanonicalKey {
    /// The key of `value` in `domain`: `.int` in ``KeyDomain/integer``, `.string` in the others;
    /// `nil` when it can match nothing there.
    public static func value(_ value: Value, in domain: KeyDomain) -> Value? {
        guard let key = MatchKey(value) else { return nil }
        switch (domain, key) {
        case (.integer, .integer(let number)): return .int(number)
        case (.number, .integer(let number)), (.text, .integer(let number)): return .string(String(number))
        case (.number, .number(let text)), (.text, .number(let text)), (.text, .text(let text)): return .string(text)
        case (.date, .date(let date)): return .string(date.description)
        case (.datetime, .datetime(let stamp)): return .string(stamp.description)
        case (.flag, .flag(let flag)): return .string(flag ? "1" : "0")
        case (.other, .other(let other)): return .string(ValueText.display(other))
        default: return nil
        }
    }
}
