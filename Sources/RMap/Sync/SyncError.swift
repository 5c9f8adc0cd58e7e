/// A sync operation the store's contents or the model do not allow, e.g. an
/// unknown entity or attribute, or a server answer without an identity.
///
/// Each case carries what a caller needs to tell the failures apart; ``description``
/// is the sentence rmap prints.
///
/// ```swift
/// do { try sync.update(project, ["nmae": .null]) } catch SyncError.unknownAttribute(let entity, let name) {
///     print("\(entity) has no attribute \(name)")
/// }
/// ```
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No entity of this name in the model.
    case unknownEntity(String)
    /// No attribute (or foreign-key column) of this name in the entity.
    case unknownAttribute(entity: String, attribute: String)
    /// The entity has no to-one relationship of this name whose link is a foreign key.
    case noForeignKeyRelationship(entity: String, relationship: String)
    /// A new object without a value for a non-integer identity attribute (rmap makes up only integers).
    case missingIdentity(entity: String, attribute: String)
    /// A new object that the store did not keep.
    case notStored(entity: String)
    /// The object (`identity` as rmap prints it) was deleted from the store meanwhile.
    case noLongerStored(entity: String, identity: String)
    /// The server created `change` (its label) but answered with neither the identity `attributes` nor a Location header.
    case answerWithoutIdentity(change: String, attributes: [String])
    /// No store file at `path` yet: nothing was fetched into it.
    case noStore(path: String)
    /// The entity has no `http` source to push its changes to.
    case noPushSource(entity: String)
    /// The entity's `http` source options are not usable (`reason` says why).
    case unusablePushSource(entity: String, reason: String)
    /// A write asked for inside a ``SyncStore/read(_:)`` scope.
    case writeInsideRead

    /// The sentence rmap prints.
    public var description: String {
        switch self {
        case .unknownEntity(let entity): "unknown entity '\(entity)'"
        case .unknownAttribute(let entity, let attribute): "\(entity) has no attribute '\(attribute)'"
        case .noForeignKeyRelationship(let entity, let relationship):
            "\(entity) has no to-one relationship '\(relationship)' held by a foreign key"
        case .missingIdentity(let entity, let attribute): "a new \(entity) needs its identity '\(attribute)'"
        case .notStored(let entity): "the new \(entity) was not stored"
        case .noLongerStored(let entity, let identity): "\(entity) \(identity) is no longer in the store"
        case .answerWithoutIdentity(let change, let attributes):
            "\(change): the server's answer has no identity (no '\(attributes.joined(separator: ", "))' and no Location header)"
        case .noStore(let path): "no store at \(path): run 'rmap run' first"
        case .noPushSource(let entity):
            "\(entity) has no http source to push to (give it 'source: {plugin: http, site: ...}')"
        case .unusablePushSource(_, let reason): reason
        case .writeInsideRead: "a write cannot run inside a read scope: open the write scope around both"
        }
    }
}
