import RMap

/// Why a live session could not do what it was asked, naming the entity and
/// the attribute or relationship involved.
///
/// ```swift
/// do { let _: String? = try person["fristName"] } catch { print(error) }
/// // CRMPerson has no attribute 'fristName' (attributes: id, firstName, lastName, ...)
/// ```
public struct LiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence a person can act on.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    static func unknownEntity(_ name: String, in model: MappingModel) -> LiveError {
        LiveError("unknown entity '\(name)' (entities: \(model.entities.map(\.name).joined(separator: ", ")))")
    }

    static func unknownAttribute(_ name: String, of entity: EntityMapping) -> LiveError {
        LiveError(
            "\(entity.name) has no attribute '\(name)' (attributes: \(entity.attributes.map(\.name).joined(separator: ", ")))"
        )
    }

    static func unknownRelationship(_ name: String, of entity: EntityMapping) -> LiveError {
        LiveError(
            "\(entity.name) has no relationship '\(name)' (relationships: \(entity.relationships.map(\.name).joined(separator: ", ")))"
        )
    }
}
