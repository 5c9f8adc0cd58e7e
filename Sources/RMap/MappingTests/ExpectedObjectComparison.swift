/// One expected object against the store: found by its identity, then each attribute it names
/// compared as its type reads it, each relationship by its destinations' identities.
struct ExpectedObjectComparison {
    let entity: EntityMapping
    let expected: ExpectedObject
    let reader: StoreReader

    /// `1`, or `1, 2` for a composite identity: how reports name an object.
    static func display(_ identity: IdentityKey) -> String {
        identity.values.map(ValueText.display).joined(separator: ", ")
    }

    /// The expected identity as ``display(_:)`` writes it, when the object names all of it.
    var identity: String? {
        guard let values = try? identityValues() else { return nil }
        return values.map(ValueText.display).joined(separator: ", ")
    }

    /// What differs; empty when the store holds the object as expected.
    ///
    /// - Throws: the store's errors.
    func failures() async throws -> [MappingTestFailure] {
        let values: [Value]
        do {
            values = try identityValues()
        } catch {
            return [error]
        }
        let identity = values.map(ValueText.display).joined(separator: ", ")
        guard let object = try await reader.object(entity.name, identity: values) else {
            return [.missing(entity: entity.name, identity: identity, at: expected.mark)]
        }
        var failures: [MappingTestFailure] = []
        for (name, node) in expected.values {
            if let failure = try await compare(name, node, on: object, identity: identity) { failures.append(failure) }
        }
        return failures
    }

    /// The identity attributes' expected values, as their types read them.
    private func identityValues() throws(MappingTestFailure) -> [Value] {
        try AttributeValues(entity: entity).identity(of: expected)
    }

    private func value(of node: YAMLNode, for name: String) throws(MappingTestFailure) -> Value {
        try AttributeValues(entity: entity).value(of: node, for: name)
    }

    private func compare(_ name: String, _ node: YAMLNode, on object: StoreObject, identity: String)
        async throws -> MappingTestFailure?
    {
        func differs(_ expected: String, _ actual: String) -> MappingTestFailure? {
            expected == actual
                ? nil
                : .differs(
                    entity: entity.name, identity: identity, name: name, expected: expected, actual: actual,
                    at: node.mark)
        }
        if let relationship = entity.relationships.first(where: { $0.name == name }) {
            let related = try await object.relationship(name).fetchAll().map { Self.display(IdentityKey($0.identity)) }
            let wanted = (node.sequence ?? (node.scalar?.isNull == true ? [] : [node])).map(Self.text)
            let ordered = relationship.ordered
            return differs(
                Self.list(ordered ? wanted : wanted.sorted()), Self.list(ordered ? related : related.sorted()))
        }
        let wanted: Value
        do {
            wanted = try value(of: node, for: name)
        } catch {
            return error
        }
        let actual = object.values[name] ?? .null
        return wanted == actual ? nil : differs(ValueText.display(wanted), ValueText.display(actual))
    }

    /// A destination's identity as written: a scalar's text, or a composite's joined.
    private static func text(_ node: YAMLNode) -> String {
        node.sequence.map { $0.map(text).joined(separator: ", ") } ?? node.scalar?.text ?? node.kindName
    }

    /// `[1, 2]`, or `none`.
    private static func list(_ identities: [String]) -> String {
        identities.isEmpty ? "none" : "[" + identities.joined(separator: "; ") + "]"
    }
}
