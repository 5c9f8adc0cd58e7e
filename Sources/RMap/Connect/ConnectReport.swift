/// What a connect run did: the links made, the references that found
/// nothing and the to-one connections that found too much.
public struct ConnectReport: Sendable {
    /// References whose values matched no object (`--strict` fails on them).
    public var dangling: [DanglingReference] = []
    /// To-one connections that matched several objects; each source was left unconnected.
    public var errors: [ConnectError] = []
    /// Links made per source entity: one per (source, destination) pair a
    /// connection resolved; entities that made none are absent.
    public var counts: [String: Int] = [:]

    /// Creates an empty report.
    public init() {}
}

/// A reference that matched nothing: the relationship stays empty (to-one) or
/// lacks these members (to-many).
///
/// ```
/// samples/projects.json#3: CRMProject 7: 'owner' found no CRMPerson with id 42
/// ```
public struct DanglingReference: Sendable, Equatable, CustomStringConvertible {
    /// The source's entity.
    public var entity: String
    /// The source's identity.
    public var identity: IdentityKey
    /// The relationship being connected.
    public var relationship: String
    /// The destination entity.
    public var destination: String
    /// The destination attributes searched (its identity for a key path).
    public var attributes: [String]
    /// The values that matched nothing, in the source's order; a value of several attributes is an array.
    public var values: [Value]
    /// Where the source's record came from.
    public var origin: String

    /// Creates a dangling reference.
    public init(
        entity: String, identity: IdentityKey, relationship: String, destination: String, attributes: [String],
        values: [Value], origin: String
    ) {
        self.entity = entity
        self.identity = identity
        self.relationship = relationship
        self.destination = destination
        self.attributes = attributes
        self.values = values
        self.origin = origin
    }

    /// `origin: entity identity: 'relationship' found no destination with attributes values`.
    public var description: String {
        "\(origin): \(entity) \(identity): '\(relationship)' found no \(destination) with "
            + ConnectText.match(attributes, values)
    }
}

/// A to-one connection that matched several objects: the source is left
/// unconnected and the record is in error.
///
/// ```
/// samples/projects.json#3: CRMProject 7: to-one 'owner' matches 2 CRMPerson objects with email a@b.c
/// ```
public struct ConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source's entity.
    public var entity: String
    /// The source's identity.
    public var identity: IdentityKey
    /// The relationship being connected.
    public var relationship: String
    /// The destination entity.
    public var destination: String
    /// The destination attributes searched; empty when a key path reached the objects themselves.
    public var attributes: [String]
    /// The values searched, or the identities of the objects a key path reached.
    public var values: [Value]
    /// How many objects matched.
    public var matches: Int
    /// Where the source's record came from.
    public var origin: String

    /// Creates an error.
    public init(
        entity: String, identity: IdentityKey, relationship: String, destination: String, attributes: [String],
        values: [Value], matches: Int, origin: String
    ) {
        self.entity = entity
        self.identity = identity
        self.relationship = relationship
        self.destination = destination
        self.attributes = attributes
        self.values = values
        self.matches = matches
        self.origin = origin
    }

    /// `origin: entity identity: to-one 'relationship' matches n destination objects with attributes values`.
    public var description: String {
        let found =
            attributes.isEmpty
            ? "reached through its key path (\(ConnectText.list(values)))"
            : "with " + ConnectText.match(attributes, values)
        return
            "\(origin): \(entity) \(identity): to-one '\(relationship)' matches \(matches) \(destination) objects \(found); it is left empty"
    }
}

/// The wording shared by connect messages.
enum ConnectText {
    /// `id 42, 43` or `(accountId, region) (5, eu)`.
    static func match(_ attributes: [String], _ values: [Value]) -> String {
        let names = attributes.count == 1 ? attributes[0] : "(" + attributes.joined(separator: ", ") + ")"
        return "\(names) \(list(values))"
    }

    /// Values separated by commas; a tuple in parentheses.
    static func list(_ values: [Value]) -> String {
        values.map { value in
            if case .array(let items) = value {
                return "(" + items.map(ValueText.display).joined(separator: ", ") + ")"
            }
            return ValueText.display(value)
        }.joined(separator: ", ")
    }
}
