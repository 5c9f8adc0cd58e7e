/// Everything the mapper needs to read one entity's records, worked out once
/// per run so that mapping a record looks up no names: the distinct top-level
/// keys, each attribute's plan, the nested relationships and the type table.
final class EntityPlan {
    let type: EntityType
    /// The distinct first keys of every attribute, nested relationship and the type key.
    let slots: [String]
    /// Where each slot's key was last found in a record: records of one payload
    /// usually list their keys in the same order, so one comparison finds most keys.
    var predicted: [Int]
    let attributes: [AttributePlan]
    /// The positions of the identity attributes.
    let identity: [Int]
    let nested: [NestedPlan]
    /// The key whose value picks a sub-entity, and its slot.
    let typeKey: (key: String, slot: Int)?
    /// Type-key values (and entity names) -> entity position, for polymorphic records.
    let types: [String: Int]
    /// Type-key values already looked up through the inflector.
    var camelizedTypes: [String: Int?] = [:]
    /// The element name that may wrap a record (`nil` for `root: bare`).
    let wrapper: String?
    let hasRequired: Bool
    /// A values array lent to one record at a time, so that mapping a record allocates none.
    private var spareValues: [Value?] = []

    init(type: EntityType, schema: GraphSchema, transformers: [String: any Transformer]) {
        self.type = type
        let mapping = type.mapping
        var slots: [String] = []
        func slot(_ key: String) -> Int {
            if let index = slots.firstIndex(of: key) { return index }
            slots.append(key)
            return slots.count - 1
        }
        attributes = mapping.attributes.enumerated().map { position, attribute in
            AttributePlan(attribute, position: position, slot: slot(attribute.keyPath[0]), transformers: transformers)
        }
        nested = mapping.relationships.enumerated().compactMap { position, relationship in
            guard relationship.nested, let destination = schema.type(named: relationship.destination) else {
                return nil
            }
            // An embedded destination reads the record's own keys: they are the record's mapped keys too.
            for key in Self.embeddedKeys(relationship, schema: schema) { _ = slot(key) }
            return NestedPlan(
                relationship, position: position, slot: relationship.embedded ? nil : slot(relationship.keyPath[0]),
                source: type, destination: destination, schema: schema)
        }
        typeKey = mapping.typeKey.map { ($0, slot($0)) }
        self.slots = slots
        predicted = slots.indices.map { $0 }
        identity = type.identityIndices
        var types: [String: Int] = [:]
        if mapping.typeKey != nil {
            let root = schema.root(of: type)
            for member in schema.family(of: root) { types[member.name] = member.index }
            for (value, entity) in root.mapping.types.merging(mapping.types, uniquingKeysWith: { _, own in own }) {
                if let target = schema.type(named: entity) { types[value] = target.index }
            }
        }
        self.types = types
        wrapper = mapping.root == .bare ? nil : mapping.element
        hasRequired = attributes.contains(where: \.required)
    }

    /// The first keys of the attributes an embedded relationship's destination reads from the record
    /// (and those of the relationships it embeds in turn); none for other relationships.
    private static func embeddedKeys(_ relationship: RelationshipMapping, schema: GraphSchema) -> [String] {
        var keys: [String] = []
        var pending = relationship.embedded ? [relationship.destination] : []
        var seen = Set(pending)
        while let name = pending.popLast(), let mapping = schema.type(named: name)?.mapping {
            keys += mapping.attributes.map { $0.keyPath[0] } + (mapping.typeKey.map { [$0] } ?? [])
            for next in mapping.relationships where next.embedded && seen.insert(next.destination).inserted {
                pending.append(next.destination)
            }
        }
        return keys
    }

    /// An array of one `nil` per attribute: the spare one when it is free, a new one otherwise.
    func takeValues() -> [Value?] {
        var values: [Value?] = []
        swap(&values, &spareValues)
        guard values.count == attributes.count else { return Array(repeating: nil, count: attributes.count) }
        for index in values.indices { values[index] = nil }
        return values
    }

    /// Takes back a values array once its record is applied.
    func returnValues(_ values: [Value?]) {
        spareValues = values
    }

    /// Fills `positions` with the member index of each slot's key in `object`
    /// (-1 when absent) and returns how many members were matched.
    func locate(_ object: JSONObject, into positions: UnsafeMutableBufferPointer<Int>) -> Int {
        let members = object.members
        var matched = 0
        for (slot, key) in slots.enumerated() {
            let guess = predicted[slot]
            if guess < members.count, members[guess].key == key {
                positions[slot] = guess
                matched += 1
            } else if let found = members.lastIndex(where: { $0.key == key }) {
                positions[slot] = found
                predicted[slot] = found
                matched += 1
            } else {
                positions[slot] = -1
            }
        }
        return matched
    }
}

/// A nested relationship as the mapper reads it.
final class NestedPlan {
    /// The relationship's position in the source entity.
    let position: Int
    let name: String
    /// The slot of the key that holds the records; `nil` for an embedded relationship, whose record
    /// is the source record itself.
    let slot: Int?
    let rest: [String]
    let key: String
    let toMany: Bool
    let replaces: Bool
    let destination: EntityType
    /// The inverse relationship in each entity (by entity position), when it has one there.
    let inverse: [(position: Int, toMany: Bool)?]
    /// For an embedded relationship: the first keys of the destination's attributes other than its
    /// identity; the record builds the destination only when it has one of them (as RestKit applies an
    /// aggregated mapping only when the representation holds at least one of its values).
    let embeddedKeys: Set<String>
    /// What each nested record takes from its parent before its identity is read: destination
    /// attribute name and the parent's attribute position. An embedded record takes the parent's
    /// identity whatever its keys say (``fillReplaces``); `identify_nested_by_parent_key` fills keys
    /// the record lacks.
    let parentFill: [(attribute: String, parent: Int)]
    let fillReplaces: Bool
    /// `missing: nullify`: a record without the key empties the relationship, as `null` does.
    let nullifiesMissing: Bool

    init(
        _ relationship: RelationshipMapping, position: Int, slot: Int?, source: EntityType, destination: EntityType,
        schema: GraphSchema
    ) {
        self.position = position
        name = relationship.name
        self.slot = slot
        rest = Array(relationship.keyPath.dropFirst())
        key = relationship.key
        toMany = relationship.kind == .toMany
        replaces = relationship.assignment == .replace
        self.destination = destination
        inverse = schema.types.map { type in
            guard let name = relationship.inverse, let position = type.relationshipIndex(name) else { return nil }
            return (position, type.mapping.relationships[position].kind == .toMany)
        }
        let identity = destination.mapping.identity
        embeddedKeys =
            relationship.embedded
            ? Set(destination.mapping.attributes.filter { !identity.contains($0.name) }.map { $0.keyPath[0] }) : []
        fillReplaces = relationship.embedded
        nullifiesMissing = relationship.missing == .nullify
        let pairs: [(String, String)]
        if relationship.embedded {
            pairs = Array(zip(identity, source.mapping.identity))
        } else {
            pairs = relationship.parentKeyPairs(destination: destination.mapping).map { ($0.source, $0.destination) }
        }
        parentFill = pairs.compactMap { child, parent in source.attributeIndex(parent).map { (child, $0) } }
    }

    /// What the nested records take from their parent's `values` (``parentFill``), or `nil`.
    ///
    /// - Parameter typeCount: how many entities the schema has.
    func fill(from values: [Value?], typeCount: Int) -> PayloadFill? {
        guard !parentFill.isEmpty else { return nil }
        var filled: [String: Value] = [:]
        for (attribute, parent) in parentFill {
            if let value = values[parent], !value.isNull { filled[attribute] = value }
        }
        return filled.isEmpty ? nil : PayloadFill(filled, typeCount: typeCount, replaces: fillReplaces)
    }
}

extension EntityPlan {
    /// The identity of a record with these attribute values; `nil` when an identity attribute is
    /// missing or null.
    func identityKey(of values: [Value?]) -> IdentityKey? {
        var key: [Value] = []
        key.reserveCapacity(identity.count)
        for position in identity {
            guard let value = values[position], !value.isNull else { return nil }
            key.append(value)
        }
        return key.isEmpty ? nil : IdentityKey(key)
    }

    /// The position of the entity a type-key value names (``types``), else its camelized form
    /// (`sub_task` -> `SubTask`), looked up through `schema`'s inflector once per value.
    func resolveType(_ text: String, in schema: GraphSchema) -> Int? {
        if let type = types[text] { return type }
        if let cached = camelizedTypes[text] { return cached }
        let type = types[schema.model.inflector.camelize(text)]
        camelizedTypes[text] = type
        return type
    }

    /// An identity as messages show it: `id=7, slug=ada`.
    func described(_ key: IdentityKey) -> String {
        zip(identity, key.values).map { "\(attributes[$0].name)=\(ValueText.display($1))" }
            .joined(separator: ", ")
    }
}
