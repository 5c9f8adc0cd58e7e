/// An object as a store holds it, for library users who change, insert and
/// delete objects before a push.
///
/// ```swift
/// var ada = try sync.objects(of: "CRMPerson").first { $0["email"] == .string("ada@example.com") }!
/// ada = try sync.update(ada, ["email": .string("ada@lovelace.org")])
/// ```
public struct LocalObject: Sendable, Equatable {
    /// The entity, e.g. `CRMPerson`.
    public var entity: String
    /// The row's handle in its table.
    public var reference: RowReference
    /// The attribute values by attribute name.
    public var values: [String: Value]
    /// The identity values (temporary for an object not pushed yet).
    public var identity: [Value]
    /// True when the server has never seen the object (no base).
    public var isNew: Bool

    /// Creates an object.
    public init(entity: String, reference: RowReference, values: [String: Value], identity: [Value], isNew: Bool) {
        self.entity = entity
        self.reference = reference
        self.values = values
        self.identity = identity
        self.isNew = isNew
    }

    /// The value of the attribute `name` (`nil` when the entity has no such attribute).
    public subscript(name: String) -> Value? { values[name] }
}
