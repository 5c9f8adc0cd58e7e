/// Reads and writes by attribute and relationship name: the public face of a
/// ``GraphObject`` over its packed row. An unknown name throws a
/// ``GraphError`` naming the entity; a value no payload carried, or `null`, reads as `nil`.
extension GraphObject {
    /// The attribute `name` as a Swift value (`String`, `Int`, `Double`, `Bool`, `Date`,
    /// `Decimal`, `LocalDate`, `Timestamp`, `DecimalNumber`, or ``Value`` itself): `nil` when it is
    /// null or no payload carried it.
    ///
    /// ```swift
    /// let name: String? = try person["firstName"]
    /// let born: LocalDate? = try person["bornOn"]
    /// ```
    ///
    /// - Throws: ``GraphError/unknownAttribute(entity:name:)``, or
    ///   ``GraphError/wrongType(entity:attribute:expected:found:)`` when the value is not a `T`.
    public subscript<T: ValueConvertible>(name: String) -> T? {
        get throws(GraphError) {
            guard let value = value(at: try attributePosition(name)), !value.isNull else { return nil }
            guard let typed = T(value: value) else {
                throw .wrongType(entity: type.name, attribute: name, expected: "\(T.self)", found: value)
            }
            return typed
        }
    }

    /// Sets the attribute `name`, e.g. in a ``Stage``. Only that value is written (the object's
    /// others stay where they are), and an identity attribute's new value is the object's
    /// identity in the graph at once: `graph.object(of:identity:)` finds it by it.
    ///
    /// - Throws: ``GraphError/unknownAttribute(entity:name:)``, or
    ///   ``GraphError/identityTaken(entity:identity:)`` when another object of the family has
    ///   that identity (nothing changes then).
    public func set(_ name: String, to value: Value) throws(GraphError) {
        try set(value, at: try attributePosition(name))
    }

    /// Sets the attribute `name` from a Swift value: `try person.set("email", to: "ada@example.com")`.
    ///
    /// - Throws: see ``set(_:to:)-(_,Value)``.
    public func set(_ name: String, to value: some ValueConvertible) throws(GraphError) {
        try set(name, to: value.value)
    }

    /// The objects related through the relationship `name`, in order (a to-one's: at most one).
    ///
    /// - Throws: ``GraphError/unknownRelationship(entity:name:)``.
    public func related(_ name: String) throws(GraphError) -> [GraphObject] {
        related(at: try relationshipPosition(name))
    }

    /// The object of the to-one relationship `name` (a to-many's first), `nil` when there is none.
    ///
    /// - Throws: ``GraphError/unknownRelationship(entity:name:)``.
    public func relatedObject(_ name: String) throws(GraphError) -> GraphObject? {
        relatedObject(at: try relationshipPosition(name))
    }

    private func attributePosition(_ name: String) throws(GraphError) -> Int {
        guard let position = type.attributeIndex(name) else { throw .unknownAttribute(entity: type.name, name: name) }
        return position
    }

    private func relationshipPosition(_ name: String) throws(GraphError) -> Int {
        guard let position = type.relationshipIndex(name) else {
            throw .unknownRelationship(entity: type.name, name: name)
        }
        return position
    }
}
