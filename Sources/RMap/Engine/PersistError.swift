import Foundation

/// A store used in a way its contents do not allow, or whose contents rmap cannot read.
///
/// Each case carries what a caller needs to tell the failures apart; ``description``
/// is the sentence rmap prints.
///
/// ```swift
/// do { _ = try objects.rows(of: "Persn") } catch PersistError.unknownEntity(let name) { print("no \(name)") }
/// ```
public enum PersistError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No entity of this name in the model.
    case unknownEntity(String)
    /// The entity has no to-many relationship of this name.
    case notToMany(entity: String, relationship: String)
    /// The to-many relationship keeps its links in neither a join table nor a foreign key.
    case linksNotStored(entity: String, relationship: String)
    /// A value in `_rmap_state` that is not JSON (`reason` says why).
    case runStateNotJSON(scope: String, key: String, reason: String)
    /// A JSON store row that is not an object (`kind`: what it is, e.g. `an array`).
    case rowNotObject(origin: String, table: String, kind: String)
    /// A JSON store value that does not convert to its column's type (`value` as rmap displays it).
    case valueMismatch(origin: String, table: String, column: String, value: String, type: String)
    /// The JSON store file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The JSON store file holds something other than one object.
    case notOneObject(path: String)
    /// The JSON store file could not be written.
    case unwritableFile(path: String, reason: String)
    /// Another process held the JSON store's lock (`lockFile`) for all of `waited`.
    case locked(path: String, lockFile: String, waited: Duration)
    /// A table name longer than the engine's limit for names (PostgreSQL's is 63 bytes).
    case tableNameTooLong(String, engine: String, limit: Int)

    /// The sentence rmap prints.
    public var description: String {
        switch self {
        case .unknownEntity(let entity): "unknown entity '\(entity)'"
        case .notToMany(let entity, let relationship): "'\(entity)' has no to-many relationship '\(relationship)'"
        case .linksNotStored(let entity, let relationship):
            "'\(entity).\(relationship)' keeps its links in neither a join table nor a foreign key"
        case .runStateNotJSON(let scope, let key, let reason):
            "_rmap_state: the value of \(scope) \(key) is not JSON: \(reason)"
        case .rowNotObject(let origin, let table, let kind): "\(origin): a row of '\(table)' is \(kind), not an object"
        case .valueMismatch(let origin, let table, let column, let value, let type):
            "\(origin): '\(table).\(column)' holds \(value), not a \(type)"
        case .unreadableFile(let path, let reason): "\(path): cannot read the JSON store: \(reason)"
        case .notOneObject(let path): "\(path): a JSON store must hold one object"
        case .unwritableFile(let path, let reason): "\(path): cannot write the JSON store: \(reason)"
        case .locked(let path, let lockFile, let waited):
            "\(path): another rmap is writing this JSON store (it holds \(lockFile)); waited "
                + String(format: "%g", Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18)
                + " s (busy_timeout): try again when it is done"
        case .tableNameTooLong(let name, let engine, let limit):
            "table name '\(name)' is longer than \(engine)'s \(limit)-byte limit"
        }
    }
}
