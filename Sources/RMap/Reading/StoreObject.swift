/// An object read from a store (``StoreReader``): a snapshot of its row as the store held it,
/// with typed reads by attribute name and relationships followed by query.
///
/// ```swift
/// let ada = try await store.objects(of: "CRMPerson").filter(["lastName": "Lovelace"]).fetchOne()!
/// let name: String? = try ada["firstName"]                     // "Ada"
/// let projects = try await ada.related("projects")              // in the store's order
/// let recent = try await ada.relationship("projects").order(.descending("id")).limit(3).fetchAll()
/// let owner = try await projects.first?.relatedObject("owner")  // ada
/// ```
public struct StoreObject: ReadableObject, Equatable, CustomStringConvertible {
    /// The entity, e.g. `CRMPerson` (a sub-entity such as `CRMAdmin` when its row's `type` says so).
    public let entity: String
    /// The identity values (temporary, negative, for an object created locally and not pushed yet).
    public let identity: [Value]
    /// The attribute values by attribute name, as stored (local changes included).
    public let values: [String: Value]
    let reader: StoreReader
    /// The row's handle and values, to follow relationships from.
    let source: ObjectRequest.Source

    init(reader: StoreReader, type: EntityType, handle: RowReference, row: [Value]) {
        self.reader = reader
        entity = type.name
        identity = reader.stored.table(of: type).identityValues(of: row)
        values = reader.stored.values(of: row, as: type)
        source = ObjectRequest.Source(entity: type.name, handle: handle, row: row)
    }

    /// The attribute `name` as a Swift value; `nil` when it is null.
    ///
    /// ```swift
    /// let budget: DecimalNumber? = try project["budget"]
    /// ```
    ///
    /// - Throws: ``ReadError/unknownAttribute(entity:name:)`` when the entity has no such
    ///   attribute, ``ReadError/wrongType(entity:attribute:expected:found:)`` when its value is not a `T`.
    public subscript<T: ValueConvertible>(name: String) -> T? {
        get throws(ReadError) {
            guard let value = values[name] else { throw .unknownAttribute(entity: entity, name: name) }
            if value.isNull { return nil }
            guard let typed = T(value: value) else {
                throw .wrongType(entity: entity, attribute: name, expected: "\(T.self)", found: value)
            }
            return typed
        }
    }

    /// The objects the relationship `name` holds, as a query to narrow, order and iterate: a
    /// to-many's objects (in the order the store keeps them), or a to-one's object.
    public func relationship(_ name: String) -> ObjectQuery {
        ObjectQuery(reader: reader, request: ObjectRequest(target: .related(source, relationship: name)))
    }

    /// The objects of the to-many relationship `name`, in the order the store keeps them (its
    /// `ordered: true` positions, else the order rows were written in).
    ///
    /// - Throws: ``ReadError`` for an unknown relationship, a to-one, or one whose links the
    ///   store does not keep; the engine's errors.
    public func related(_ name: String) async throws -> [StoreObject] {
        try check(name, toMany: true)
        return try await relationship(name).fetchAll()
    }

    /// The object of the to-one relationship `name`; `nil` when it points at nothing, or at
    /// several objects (a foreign key on attributes that are not the destination's identity
    /// matching two of them: a run reports such a to-one and leaves it empty, docs/mapping.md).
    ///
    /// - Throws: ``ReadError`` for an unknown relationship, a to-many, or one whose links the
    ///   store does not keep; the engine's errors.
    public func relatedObject(_ name: String) async throws -> StoreObject? {
        try check(name, toMany: false)
        let found = try await relationship(name).limit(2).fetchAll()
        return found.count == 1 ? found[0] : nil
    }

    /// Throws unless the relationship `name` is a to-many (`toMany`) or a to-one the store follows.
    private func check(_ name: String, toMany: Bool) throws(ReadError) {
        let path = try RelationshipPath(reader.stored, from: try reader.stored.type(named: entity), name)
        if path.toMany != toMany { throw .wrongKind(entity: entity, relationship: name, toMany: path.toMany) }
    }

    /// `CRMPerson 1`.
    public var description: String { "\(entity) \(IdentityKey(identity))" }

    /// The same object read by the same reader, with the same values.
    public static func == (lhs: StoreObject, rhs: StoreObject) -> Bool {
        lhs.reader === rhs.reader && lhs.entity == rhs.entity && lhs.identity == rhs.identity
            && lhs.values == rhs.values
    }
}
