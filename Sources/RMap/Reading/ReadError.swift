/// Why a read of a store by name failed: a name the model does not have, a relationship asked
/// for as the wrong kind or whose links the store does not keep, or a value of another type
/// than the one asked for.
///
/// ```swift
/// do {
///     let name: String? = try person["fristName"]
/// } catch .unknownAttribute(let entity, let name) {
///     print("\(entity) has no attribute \(name)")
/// }
/// ```
public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model has no entity `name`.
    case unknownEntity(String)
    /// The entity (the object's, a sub-entity for polymorphic rows) has no attribute `name`.
    case unknownAttribute(entity: String, name: String)
    /// The entity has no relationship `name`.
    case unknownRelationship(entity: String, name: String)
    /// The attribute holds (or a condition gives) a value that is not a `expected`.
    case wrongType(entity: String, attribute: String, expected: String, found: Value)
    /// The relationship is a to-one, asked for as a to-many (`related`), or the other way round
    /// (`relatedObject`); `toMany` says what it is.
    case wrongKind(entity: String, relationship: String, toMany: Bool)
    /// The store keeps no link of the relationship (neither a column nor a join table holds it,
    /// nor its inverse's), so it cannot be followed.
    case linksNotStored(entity: String, relationship: String)

    /// A sentence a person can act on (the graph's for the names it shares, ``GraphError``).
    public var description: String {
        switch self {
        case .unknownEntity(let name): GraphError.unknownEntity(name).description
        case .unknownAttribute(let entity, let name):
            GraphError.unknownAttribute(entity: entity, name: name).description
        case .unknownRelationship(let entity, let name):
            GraphError.unknownRelationship(entity: entity, name: name).description
        case .wrongType(let entity, let attribute, let expected, let found):
            GraphError.wrongType(entity: entity, attribute: attribute, expected: expected, found: found).description
        case .wrongKind(let entity, let relationship, let toMany):
            toMany
                ? "\(entity).\(relationship) is a to-many: read it with related(\"\(relationship)\")"
                : "\(entity).\(relationship) is a to-one: read it with relatedObject(\"\(relationship)\")"
        case .linksNotStored(let entity, let relationship):
            "the store keeps no link of \(entity).\(relationship) (no column or join table holds it, nor its inverse)"
        }
    }
}
