/// Why a mapping test case failed: each a line of `rmap test`'s report.
public enum MappingTestFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The case names an entity the mapping files do not declare.
    case unknownEntity(String, suggestion: String?, at: Mark)
    /// An expected object names no attribute or relationship of its entity.
    case unknownName(entity: String, name: String, at: Mark)
    /// An expected object lacks an identity attribute, so no object can be looked up.
    case missingIdentity(entity: String, attribute: String, at: Mark)
    /// An expected value cannot be read as its attribute's type.
    case unreadableValue(entity: String, attribute: String, value: String, type: String, at: Mark)
    /// The run over the payload failed (a payload that cannot be read, a stage that fails).
    case runFailed(String)
    /// The map or connect stage rejected a record of the payload.
    case rejected(String)
    /// The payload gave no object with an expected identity.
    case missing(entity: String, identity: String, at: Mark)
    /// The payload gave an object no expected object names.
    case unexpected(entity: String, identity: String)
    /// An attribute or relationship holds another value than expected.
    case differs(entity: String, identity: String, name: String, expected: String, actual: String, at: Mark)
    /// A local edit names a relationship: edits set attributes (a foreign key's among them).
    case notAnAttribute(entity: String, name: String, at: Mark)
    /// The push plan's request at `position` (from 1) is another than expected.
    case requestDiffers(position: Int, expected: String, actual: String, at: Mark)
    /// The push plan has no request at `position`, where one is expected.
    case requestMissing(position: Int, expected: String, at: Mark)
    /// The push plan has a request at `position` that no expected request stands for.
    case requestUnexpected(position: Int, actual: String)

    public var description: String {
        switch self {
        case .unknownEntity(let name, let suggestion, let mark):
            "\(mark): unknown entity '\(name)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .unknownName(let entity, let name, let mark):
            "\(mark): '\(entity)' has no attribute or relationship '\(name)'"
        case .missingIdentity(let entity, let attribute, let mark):
            "\(mark): an object expected of '\(entity)' needs its identity attribute '\(attribute)'"
        case .unreadableValue(let entity, let attribute, let value, let type, let mark):
            "\(mark): \(value) is not a value of \(entity).\(attribute) (\(type))"
        case .runFailed(let message): "the run failed: \(message)"
        case .rejected(let message): "rejected: \(message)"
        case .missing(let entity, let identity, let mark): "\(entity) \(identity): missing (expected at \(mark))"
        case .unexpected(let entity, let identity): "\(entity) \(identity): not expected"
        case .differs(let entity, let identity, let name, let expected, let actual, let mark):
            "\(entity) \(identity): \(name): expected \(expected), got \(actual) (\(mark))"
        case .notAnAttribute(let entity, let name, let mark):
            "\(mark): '\(name)' is a relationship of '\(entity)': a local edit sets attributes"
        case .requestDiffers(let position, let expected, let actual, let mark):
            "push request \(position): expected \(expected), got \(actual) (\(mark))"
        case .requestMissing(let position, let expected, let mark):
            "push request \(position): missing \(expected) (expected at \(mark))"
        case .requestUnexpected(let position, let actual): "push request \(position): not expected: \(actual)"
        }
    }
}
