/// What a `where:` condition of a read asks for (``ObjectReading/fetch(_:where:sort:limit:offset:)``,
/// ``ObjectQuery/filter(_:)``): one value, or any of several (`IN`).
///
/// Literals stand for equality: `["lastName": "Lovelace", "admin": true]`;
/// `nil` asks for a null; `.oneOf([1, 2])` for any of the values. The store compares them with
/// the attribute's values as rmap compares values (`12.50` equals `12.5`); the live session
/// sends them to the server (`last_name=Lovelace`, `person_id=` for null, as ActiveResource
/// does, `id[]=1&id[]=2`).
public enum QueryValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    /// Equal to the value.
    case equals(Value)
    /// Equal to one of the values.
    case anyOf([Value])

    /// Any of the values, e.g. `.oneOf([1, 2])`.
    public static func oneOf(_ values: [some ValueConvertible]) -> QueryValue { .anyOf(values.map(\.value)) }

    public init(stringLiteral value: String) { self = .equals(.string(value)) }
    public init(integerLiteral value: Int64) { self = .equals(.int(value)) }
    public init(booleanLiteral value: Bool) { self = .equals(.bool(value)) }
    public init(floatLiteral value: Double) { self = .equals(.double(value)) }
    public init(nilLiteral: ()) { self = .equals(.null) }

    /// The values a stored value may have to match.
    package var values: [Value] {
        switch self {
        case .equals(let value): [value]
        case .anyOf(let values): values
        }
    }

    /// Whether a stored value matches (values compare by type: `12.50` equals `12.5`).
    package func matches(_ stored: Value?) -> Bool {
        let stored = stored ?? .null
        return values.contains { ValueText.display($0) == ValueText.display(stored) && $0.isNull == stored.isNull }
    }
}

extension SortKey {
    /// Ascending by an attribute (by its name in the mapping), e.g. `.ascending("lastName")`.
    public static func ascending(_ attribute: String) -> SortKey {
        SortKey(attribute: attribute, descending: false)
    }

    /// Descending by an attribute (by its name in the mapping).
    public static func descending(_ attribute: String) -> SortKey {
        SortKey(attribute: attribute, descending: true)
    }
}
