import RMap

/// The third pass of ``MappingInference``: relationships.
///
/// - Each nested key becomes a nested relationship; when every child holds
///   its parent's identity under `<parent element>_id`, the child gets the
///   to-one back (`project`), set by nesting, as the inverse. A nested to-one
///   (`owner`) gets a to-many inverse on its destination (`GHUser.repos`) when
///   the name is free.
/// - A `*_id` attribute becomes a to-one and a `*_ids` array a to-many,
///   connected by `foreign_key` to the entity the key names when all its
///   values are identities there; when no entity has that name, to the one
///   entity whose identities hold them all (unsure). A to-one gets a to-many
///   inverse on its destination (`CRMPerson.projects`) when the name is free.
struct ConnectionInference {
    /// The names in use.
    let naming: InferenceNaming
    /// The collected records.
    let drafts: [EntityDraft]
    /// The entities, relationships being added.
    private(set) var entities: [InferredEntity]
    /// What was noticed.
    private(set) var notes: [InferenceNote] = []
    /// Identity values by entity position, as text.
    private let identities: [Set<String>?]
    /// `(entity, attribute)` pairs a nested back link already uses.
    private var consumed: Set<[String]> = []

    init(naming: InferenceNaming, drafts: [EntityDraft], entities: [InferredEntity]) {
        self.naming = naming
        self.drafts = drafts
        self.entities = entities
        identities = zip(drafts, entities).map { draft, entity in
            entity.identity.map { name in
                Set(draft.objects.compactMap { $0[naming.inflector.underscore(name)].flatMap(Self.text) })
            }
        }
    }

    mutating func run() {
        for index in drafts.indices {
            for nested in drafts[index].nested { addNested(nested, from: index) }
        }
        for index in drafts.indices {
            for attribute in entities[index].attributes where attribute.key == nil { connect(attribute, from: index) }
        }
    }

    // MARK: - Nested

    private mutating func addNested(_ nested: EntityDraft.NestedKey, from index: Int) {
        let name = naming.property(nested.key)
        guard let child = position(of: nested.destination), isFree(name, in: index) else {
            notes.append(.unsure("\(entities[index].name).\(nested.key): the name '\(name)' is taken; not mapped"))
            return
        }
        var relationship = InferredRelationship(
            name: name, destination: nested.destination, toMany: nested.toMany, nested: true,
            key: naming.isDefaultKey(nested.key, of: name) ? nil : nested.key)
        let back = naming.property(naming.element(of: entities[index].name))
        if nested.toMany, let backKey = nested.backKey, isFree(back, in: child) {
            relationship.inverse = back
            entities[child].relationships.append(
                InferredRelationship(
                    name: back, destination: entities[index].name, toMany: false, nested: false, inverse: name))
            consumed.insert([entities[child].name, naming.property(backKey)])
            notes.append(.inferred("\(entities[child].name).\(back): the parent each record is nested in (\(backKey))"))
        }
        let holders = naming.plural(naming.element(of: entities[index].name))
        if !nested.toMany, child != index, isFree(holders, in: child) {
            relationship.inverse = holders
            entities[child].relationships.append(
                InferredRelationship(
                    name: holders, destination: entities[index].name, toMany: true, nested: false, inverse: name))
        }
        entities[index].relationships.append(relationship)
    }

    // MARK: - Foreign keys

    private mutating func connect(_ attribute: InferredAttribute, from index: Int) {
        let key = naming.inflector.underscore(attribute.name)
        let toMany = key.hasSuffix("_ids")
        guard toMany || key.hasSuffix("_id"), attribute.name != entities[index].identity,
            !consumed.contains([entities[index].name, attribute.name])
        else { return }
        let base = String(key.dropLast(toMany ? 4 : 3))
        let values = Set(
            drafts[index].objects.flatMap { object in
                (object[key]?.array ?? object[key].map { [$0] } ?? []).compactMap(Self.text)
            })
        let place = "\(entities[index].name).\(attribute.name)"
        guard !values.isEmpty else { return }
        guard
            let (destination, sure, unmatched) = destination(
                named: naming.entity(from: base), holding: values, from: index, place: place)
        else { return }
        let name = toMany ? naming.plural(base) : naming.property(base)
        guard isFree(name, in: index), let identity = entities[destination].identity else {
            notes.append(.unsure("\(place): the relationship name '\(name)' is taken; not connected"))
            return
        }
        var relationship = InferredRelationship(
            name: name, destination: entities[destination].name, toMany: toMany, nested: false,
            foreignKey: .init(source: attribute.name, destination: identity),
            comment: unmatched > 0
                ? "check: \(unmatched) of \(values.count) values are no identity of \(entities[destination].name)"
                : sure ? nil : "check: every value is an identity of \(entities[destination].name)")
        let inverse = naming.plural(naming.element(of: entities[index].name))
        if !toMany, destination != index, isFree(inverse, in: destination) {
            relationship.inverse = inverse
            entities[destination].relationships.append(
                InferredRelationship(
                    name: inverse, destination: entities[index].name, toMany: true, nested: false, inverse: name))
        }
        entities[index].relationships.append(relationship)
    }

    /// The entity `named` when it holds most values (the values it lacks counted: a sample's
    /// parent may be missing from the samples); otherwise the one other entity than `source`
    /// that holds every value, else the one that holds most (a key that names no entity rarely
    /// points back at its own).
    private mutating func destination(
        named name: String, holding values: Set<String>, from source: Int, place: String
    ) -> (index: Int, sure: Bool, unmatched: Int)? {
        let identities = self.identities
        let unmatched = { (index: Int) in Self.unmatched(values, in: identities[index]) }
        let most = { (index: Int) in Self.holdsMost(values, identities[index]) }
        if let named = position(of: name) {
            let missing = unmatched(named)
            if identities[named] != nil, missing == 0 {
                notes.append(.inferred("\(place): connected to \(name) by its identity"))
                return (named, true, 0)
            }
            guard most(named) else {
                notes.append(.unsure("\(place): most values are not identities of \(name); not connected"))
                return nil
            }
            notes.append(
                .unsure(
                    "\(place): connected to \(name), though \(missing) of \(values.count) values are no identity there")
            )
            return (named, false, missing)
        }
        let others = identities.indices.filter { $0 != source }
        let holders = others.filter { identities[$0] != nil && unmatched($0) == 0 }
        if holders.count == 1 {
            notes.append(
                .unsure(
                    "\(place): no entity \(name); connected to \(entities[holders[0]].name), which holds every value"))
            return (holders[0], false, 0)
        }
        let majorities = holders.isEmpty ? others.filter(most) : []
        guard majorities.count == 1 else {
            let found = holders.count + majorities.count == 0 ? "no entity" : "several"
            notes.append(.unsure("\(place): no entity \(name), and \(found) holds its values; not connected"))
            return nil
        }
        let holder = majorities[0]
        notes.append(
            .unsure(
                "\(place): no entity \(name); connected to \(entities[holder].name), which holds \(values.count - unmatched(holder)) of \(values.count) values"
            ))
        return (holder, false, unmatched(holder))
    }

    /// How many of `values` are not among `identities` (all, without identities).
    private static func unmatched(_ values: Set<String>, in identities: Set<String>?) -> Int {
        identities.map { values.subtracting($0).count } ?? values.count
    }

    /// Whether `identities` hold more than half of `values`.
    private static func holdsMost(_ values: Set<String>, _ identities: Set<String>?) -> Bool {
        identities != nil && unmatched(values, in: identities) * 2 < values.count
    }

    private func position(of name: String) -> Int? {
        entities.firstIndex { $0.name == name }
    }

    private func isFree(_ name: String, in index: Int) -> Bool {
        !entities[index].attributes.contains { $0.name == name }
            && !entities[index].relationships.contains { $0.name == name }
    }

    /// A scalar identity value as text: `12`, `ada`.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .number(let text), .string(let text): text
        default: nil
        }
    }
}
