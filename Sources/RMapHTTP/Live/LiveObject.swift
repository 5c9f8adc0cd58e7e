public import RMap

/// An object of a live ``Session``: a snapshot of its attributes as the
/// store held them when it was read, with typed reads by attribute name and
/// relationships that load on first access.
///
/// ```swift
/// let ada = try await session.fetch("CRMPerson", where: ["lastName": "Lovelace"])[0]
/// let name: String? = try ada["firstName"]            // "Ada"
/// let projects = try await ada.related("projects")    // GET /people/1/projects.json, once
/// try await ada.set("email", to: "ada@lovelace.org")  // a local change until session.save()
/// ```
public struct LiveObject: ReadableObject, Equatable, CustomStringConvertible {
    /// The session the object came from.
    public let session: Session
    /// The entity, e.g. `CRMPerson` (a sub-entity such as `CRMAdmin` when the record said so).
    public let entity: String
    /// The identity values (temporary, negative, for an object inserted and not saved yet).
    public let identity: [Value]
    /// The attribute values by attribute name, as stored (local changes included).
    public let values: [String: Value]

    init(session: Session, entity: String, identity: [Value], values: [String: Value]) {
        self.session = session
        self.entity = entity
        self.identity = identity
        self.values = values
    }

    /// The attribute `name` as a Swift value; `nil` when it is null.
    ///
    /// - Throws: ``LiveError`` when the entity has no such attribute, or its value is not a `T`.
    public subscript<T: ValueConvertible>(name: String) -> T? {
        get throws(LiveError) {
            guard let value = values[name] else {
                throw LiveError(
                    "\(entity) has no attribute '\(name)' (attributes: \(values.keys.sorted().joined(separator: ", ")))"
                )
            }
            if value.isNull { return nil }
            guard let typed = T(value: value) else {
                throw LiveError(
                    "\(entity) \(IdentityKey(identity)).\(name) is \(ValueText.display(value)), not a \(T.self)")
            }
            return typed
        }
    }

    /// Changes an attribute locally: written to the store at once, pushed by ``Session/save()``.
    ///
    /// The object is a snapshot: the one returned holds the new value (`ada = try await ada.set(...)`).
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``LiveError`` for an unknown attribute or an object no longer stored.
    @discardableResult
    public func set(_ name: String, to value: some ValueConvertible) async throws -> LiveObject {
        try await session.update(self, [name: value.value])
    }

    /// The objects of a to-many relationship: loaded from the server on first
    /// access (its nested route or `params` route, else a filter on the foreign
    /// key), from the store afterwards.
    public func related(_ name: String) async throws -> [LiveObject] {
        try await session.relationships.related(self, name, in: session)
    }

    /// The object of a to-one relationship held by a foreign key: from the
    /// session's cache or the store, else `GET /people/7.json`; `nil` when the key is null.
    public func relatedObject(_ name: String) async throws -> LiveObject? {
        try await session.relationships.relatedObject(self, name, in: session)
    }

    /// `CRMPerson 1`.
    public var description: String { "\(entity) \(IdentityKey(identity))" }

    public static func == (lhs: LiveObject, rhs: LiveObject) -> Bool {
        lhs.session === rhs.session && lhs.entity == rhs.entity && lhs.identity == rhs.identity
            && lhs.values == rhs.values
    }
}
