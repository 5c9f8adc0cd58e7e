/// The identity of an object: its identity attributes' values.
///
/// One object exists per (root entity, identity key). Numbers that denote the
/// same integer are the same key whatever their type was in the payload.
public struct IdentityKey: Sendable, Hashable, CustomStringConvertible {
    /// The identity values, in the order of ``EntityMapping/identity``.
    public var values: [Value]

    /// Creates a key.
    public init(_ values: [Value]) {
        self.values = values
    }

    /// True when any identity value is null: such an object is new, not yet known to the server.
    public var isIncomplete: Bool { values.isEmpty || values.contains(where: \.isNull) }

    /// The values as text, e.g. `42` or `acme/7`.
    public var description: String {
        values.map { value in
            switch value {
            case .string(let text): text
            case .int(let number): String(number)
            case .null: "null"
            default: "\(ValueText.display(value))"
            }
        }.joined(separator: "/")
    }
}
