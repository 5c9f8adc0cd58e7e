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
