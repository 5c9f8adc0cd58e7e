/// A JSON:API document that cannot become records: not a document, a resource without its
/// `type` or `id`, or a type the mapping does not know.
public enum JSONAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The answer is not a JSON:API document: no top-level object with `data`.
    case notADocument(found: String)
    /// A resource object without a string `type`; `place` says where (`data[2]`, `included[0]`).
    case missingType(place: String)
    /// A resource object without an `id`.
    case missingID(type: String, place: String)
    /// A resource whose type no entity has (and the fetched entity's `unknown_type` is `reject`).
    case unknownType(type: String, id: String, place: String, entity: String, known: [String])
    /// Linkage to a resource whose type is not the relationship's destination or one of its sub-entities.
    case linkageType(entity: String, relationship: String, type: String, destination: String)

    /// The problem as a sentence, naming the place in the document and the type.
    public var description: String {
        switch self {
        case .notADocument(let found):
            return "expected a JSON:API document (an object with 'data'), found \(found)"
        case .missingType(let place):
            return "the resource at \(place) has no 'type'"
        case .missingID(let type, let place):
            return "the '\(type)' resource at \(place) has no 'id'"
        case .unknownType(let type, let id, let place, let entity, let known):
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            return
                "the resource at \(place) has type '\(type)' (id \(id)), which no entity's collection names (types mapped: \(list)); map it, or set 'unknown_type: skip' on '\(entity)'"
        case .linkageType(let entity, let relationship, let type, let destination):
            return
                "'\(entity).\(relationship)' links to a resource of type '\(type)', which is not '\(destination)' or one of its sub-entities"
        }
    }
}
