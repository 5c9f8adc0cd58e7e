/// One attribute of an entity: its property name, type, and where its value
/// sits in a payload.
public struct AttributeMapping: Sendable, Hashable {
    /// The property name, e.g. `firstName`.
    public var name: String
    /// The value type.
    public var type: AttributeType
    /// The key path in a record, one element per object level, e.g. `["address", "city"]`.
    public var keyPath: [String]
    /// The column in a store's table, e.g. `first_name` or `address_city`.
    public var column: String
    /// A new object must carry a non-null value.
    public var required: Bool = false
    /// The value used when the payload of an object new to the store has no key for this attribute.
    public var defaultValue: Value?
    /// `default_on_missing: true`: the default also replaces a stored value when a payload lacks the key.
    public var defaultOnMissing: Bool = false
    /// How `date` and `datetime` text is read, when not ISO 8601.
    public var format: TimeFormat?
    /// `empty_as_null: true`: an empty string reads as `null`.
    public var emptyAsNull: Bool = false
    /// `wrap_single: true`: a scalar where the `[T]` attribute expects an array reads as a one-element array.
    public var wrapSingle: Bool = false
    /// `true_values` / `false_values`: the texts a `bool` reads, when not the default ones.
    public var booleanWords: BooleanWords?
    /// A value map (payload -> stored), applied in reverse when pushing.
    public var valueMap: [ValueMapEntry] = []
    /// Fetched and stored, never pushed.
    public var readonly: Bool = false
    /// Names of the value transformers applied, in order, after conversion.
    public var transforms: [String] = []
    /// The `exec` transformer (`transform: { exec: [program, args...] }`): runs after the named
    /// ones, once every payload is mapped, on the value each object then has.
    public var execTransform: ExecCommand?
    /// Where the attribute is declared.
    public var mark: Mark

    /// Creates an attribute mapping.
    public init(name: String, type: AttributeType, keyPath: [String], column: String, mark: Mark) {
        self.name = name
        self.type = type
        self.keyPath = keyPath
        self.column = column
        self.mark = mark
    }

    /// The key path as users write it (`address.city`).
    public var key: String { keyPath.joined(separator: ".") }
}

/// One pair of an attribute's value map: the payload's value and the stored one.
public struct ValueMapEntry: Sendable, Hashable {
    /// The payload's text, e.g. `A`.
    public var remote: String
    /// The stored text, e.g. `active`.
    public var local: String

    /// Creates an entry.
    public init(remote: String, local: String) {
        self.remote = remote
        self.local = local
    }
}

/// How a `date` or `datetime` attribute's payload value is read.
public enum TimeFormat: Sendable, Hashable {
    /// ISO 8601 text (the default).
    case iso8601
    /// Seconds since 1970 as a number.
    case epochSeconds
    /// Milliseconds since 1970 as a number.
    case epochMilliseconds
    /// .NET's JSON date, `/Date(1000212360000-0400)/`: milliseconds since 1970 (UTC), then an
    /// optional offset that says where it was written and changes nothing.
    case dotnet
    /// A Unicode date pattern such as `dd/MM/yyyy HH:mm`, read and written in `timeZone` (an IANA
    /// identifier; `nil`: UTC) unless the pattern itself reads a zone.
    case pattern(String, timeZone: String? = nil)
}

extension TimeFormat {
    /// The format a `format:` value names: `iso8601`, `epoch_s`, `epoch_ms`, `dotnet`, or a Unicode
    /// pattern read in `timeZone` (`nil`: UTC).
    public init(name: String, timeZone: String? = nil) {
        switch name {
        case "iso8601": self = .iso8601
        case "epoch_s": self = .epochSeconds
        case "epoch_ms": self = .epochMilliseconds
        case "dotnet": self = .dotnet
        default: self = .pattern(name, timeZone: timeZone)
        }
    }
}

/// The texts a `bool` attribute reads (`true_values`, `false_values`), compared ignoring case.
///
/// ```swift
/// let words = BooleanWords(trueValues: ["y", "yes"], falseValues: ["n", "no"])
/// words.bool(for: "Y")  // true
/// ```
public struct BooleanWords: Sendable, Hashable {
    /// The texts that read as `true` (default `true`, `t`, `yes`, `1`).
    public var trueValues: [String]
    /// The texts that read as `false` (default `false`, `f`, `no`, `0`).
    public var falseValues: [String]

    /// The words a `bool` reads without `true_values` or `false_values`.
    public static let standard = BooleanWords(trueValues: ["true", "t", "yes", "1"], falseValues: ["false", "f", "no", "0"])

    /// Creates the words; each list replaces its side of ``standard``.
    public init(trueValues: [String], falseValues: [String]) {
        self.trueValues = trueValues.map { $0.lowercased() }
        self.falseValues = falseValues.map { $0.lowercased() }
    }

    /// `true` or `false` for a listed text, `nil` for any other.
    public func bool(for text: String) -> Bool? {
        let lowered = text.lowercased()
        if trueValues.contains(lowered) { return true }
        if falseValues.contains(lowered) { return false }
        return nil
    }
}
