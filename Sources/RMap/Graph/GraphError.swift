/// Why a read or write by name on a run's objects (a stage's ``StagedObject``) failed.
///
/// ```swift
/// do {
///     let name: String? = try person["fristName"]
/// } catch .unknownAttribute(let entity, let name) {
///     print("\(entity) has no attribute \(name)")
/// }
/// ```
public enum GraphError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model has no entity `name`.
    case unknownEntity(String)
    /// The entity (the object's, a sub-entity for polymorphic records) has no attribute `name`.
    case unknownAttribute(entity: String, name: String)
    /// The entity has no relationship `name`.
    case unknownRelationship(entity: String, name: String)
    /// The attribute holds a value that is not a `expected` (the Swift type asked for).
    case wrongType(entity: String, attribute: String, expected: String, found: Value)
    /// Setting an identity attribute would give the object the identity another object of its
    /// family holds already.
    case identityTaken(entity: String, identity: IdentityKey)

    public var description: String {
        switch self {
        case .unknownEntity(let name): "no entity named '\(name)'"
        case .unknownAttribute(let entity, let name): "\(entity) has no attribute '\(name)'"
        case .unknownRelationship(let entity, let name): "\(entity) has no relationship '\(name)'"
        case .wrongType(let entity, let attribute, let expected, let found):
            "\(entity).\(attribute) is \(ValueText.display(found)), not a \(expected)"
        case .identityTaken(let entity, let identity): "another \(entity) has the identity \(identity)"
        }
    }
}
