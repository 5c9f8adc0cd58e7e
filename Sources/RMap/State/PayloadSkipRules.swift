/// Which payloads a run may skip when their bytes are unchanged (``RememberedPayloads``):
/// only those whose objects' stored rows and links cannot depend on any other payload, so
/// that skipping one leaves the store exactly as mapping it again would.
///
/// - Nothing is skipped in a model with `stages:` or an `exec` transformer (a program
///   may answer differently each run), or with a key-path connection (its links depend on
///   objects along the path).
/// - An entity that a stored link names (a join table, or a foreign-key column that a
///   connection sets) is *pinned*: a changed payload linking to a skipped object would lose
///   the link, the object not being in the graph. When the connection matches more than
///   the destination's identity (other attributes, a `where:`), the source is pinned too:
///   its link may change when only the destination's payload does.
/// - An entity with tombstones (`delete_when` records) is pinned.
///
/// A payload is remembered only when none of its objects (nested ones included) is of a
/// pinned entity's family.
struct PayloadSkipRules: Sendable {
    /// The root entities whose objects keep a payload from being skipped.
    let pinnedRoots: Set<String>

    /// The rules of `model`, or `nil` when it may skip nothing.
    init?(model: MappingModel) {
        guard model.stages.isEmpty else { return nil }
        var pinned: Set<String> = []
        for entity in model.entities {
            if entity.attributes.contains(where: { $0.execTransform != nil }) { return nil }
            if entity.deletion.tombstone != nil { pinned.insert(model.root(of: entity).name) }
            for relationship in entity.relationships {
                guard let connection = relationship.connection else { continue }
                guard case .foreignKey(let pairs) = connection.rule else { return nil }
                // A to-one found by foreign key keeps no link of its own: its attribute is the link.
                if relationship.kind == .toOne { continue }
                guard let destination = model.entity(named: relationship.destination) else { continue }
                let root = model.root(of: destination)
                pinned.insert(root.name)
                let byIdentity =
                    Set(pairs.map(\.destination)) == Set(root.identity) && connection.destinationPredicate.isEmpty
                if !byIdentity { pinned.insert(model.root(of: entity).name) }
            }
        }
        pinnedRoots = pinned
    }

    /// True when a payload whose objects are of `entities` may be skipped next time.
    func allows(_ entities: some Sequence<String>, in model: MappingModel) -> Bool {
        entities.allSatisfy { name in
            guard let entity = model.entity(named: name) else { return false }
            return !pinnedRoots.contains(model.root(of: entity).name)
        }
    }
}
