/// An object of the run as a ``Stage`` sees it (``StagedObjects``): its entity, identity and
/// the values its payloads carried, by attribute name; the values a stage sets are staged with
/// it and stored as if a payload had carried them.
///
/// ```swift
/// let name: String? = try person["firstName"]
/// try person.set("firstName", to: name?.uppercased() ?? "")
/// ```
public struct StagedObject: Sendable, Equatable {
    /// The entity (a sub-entity for polymorphic records).
    public let entity: String
    /// The identity values.
    public let identity: [Value]
    /// The values payloads carried (a missing key is absent; `null` is `.null`), stage changes included.
    public private(set) var values: [String: Value]
    /// The attributes the entity has, for errors.
    let attributes: [String]
    /// The identity attributes, which stay as they are.
    let identityAttributes: [String]
    /// The values set by the stage, by attribute name.
    private(set) var changes: [String: Value] = [:]

    init(entity: String, identity: [Value], values: [String: Value], attributes: [String], identityAttributes: [String])
    {
        self.entity = entity
        self.identity = identity
        self.values = values
        self.attributes = attributes
        self.identityAttributes = identityAttributes
    }

    /// The attribute `name` as a Swift value; `nil` when it is null or no payload carried it.
    ///
    /// - Throws: ``GraphError/unknownAttribute(entity:name:)``, or
    ///   ``GraphError/wrongType(entity:attribute:expected:found:)`` when the value is not a `T`.
    public subscript<T: ValueConvertible>(name: String) -> T? {
        get throws(GraphError) {
            guard attributes.contains(name) else { throw .unknownAttribute(entity: entity, name: name) }
            guard let value = values[name], !value.isNull else { return nil }
            guard let typed = T(value: value) else {
                throw .wrongType(entity: entity, attribute: name, expected: "\(T.self)", found: value)
            }
            return typed
        }
    }

    /// Sets the attribute `name`: staged as a payload's value would be.
    ///
    /// - Throws: ``GraphError/unknownAttribute(entity:name:)``, or
    ///   ``GraphError/identityTaken(entity:identity:)`` for an identity attribute (an object keeps its identity).
    public mutating func set(_ name: String, to value: Value) throws(GraphError) {
        guard attributes.contains(name) else { throw .unknownAttribute(entity: entity, name: name) }
        if identityAttributes.contains(name), values[name] != value {
            throw .identityTaken(entity: entity, identity: IdentityKey(identity))
        }
        values[name] = value
        changes[name] = value
    }

    /// Sets the attribute `name` from a Swift value.
    public mutating func set(_ name: String, to value: some ValueConvertible) throws(GraphError) {
        try set(name, to: value.value)
    }
}
