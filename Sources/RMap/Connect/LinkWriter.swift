/// Sets one relationship's links and keeps its inverse consistent, the way
/// Core Data maintains inverses for RestKit.
///
/// When relationship `R` (inverse `I`) links source `S` to destination `D`,
/// `D.I` comes to hold `S`: appended to a to-many (once), or replacing a
/// to-one's object. A to-one inverse replaced this way drops `D` from the
/// previous holder's `R`, so the last source to claim `D` keeps it. A link
/// that `S` no longer has is removed from `D.I`. Inverse updates are gathered
/// and applied by ``flush()`` in one pass per destination, so the cost stays
/// linear in the links however many sources share a destination.
final class LinkWriter {
    private let name: String
    private let inverse: String?
    /// Per destination: the sources to remove from its inverse.
    private var removals: [ObjectIdentifier: (object: GraphObject, sources: Set<ObjectIdentifier>)] = [:]
    /// Per destination: the sources its inverse must hold, in link order.
    private var additions: [ObjectIdentifier: (object: GraphObject, sources: [GraphObject])] = [:]

    /// A writer for the relationship `relationship`.
    init(_ relationship: RelationshipMapping) {
        name = relationship.name
        inverse = relationship.inverse
    }

    /// Sets `source`'s relationship at `position` to `destinations` and records the inverse changes.
    func link(_ source: GraphObject, at position: Int, to destinations: [GraphObject]) {
        let previous = source.related[position]
        source.related[position] = destinations
        guard inverse != nil else { return }
        if !previous.isEmpty {
            let kept = Set(destinations.map(ObjectIdentifier.init))
            for old in previous where !kept.contains(ObjectIdentifier(old)) {
                removals[ObjectIdentifier(old), default: (old, [])].sources.insert(ObjectIdentifier(source))
            }
        }
        for destination in destinations {
            additions[ObjectIdentifier(destination), default: (destination, [])].sources.append(source)
        }
    }

    /// Applies the recorded inverse changes.
    func flush() {
        guard let inverse else { return }
        var dropped: [ObjectIdentifier: (object: GraphObject, destinations: Set<ObjectIdentifier>)] = [:]
        for (destination, sources) in removals.values {
            guard let position = destination.type.relationshipIndex(inverse) else { continue }
            destination.related[position].removeAll { sources.contains(ObjectIdentifier($0)) }
        }
        for (destination, sources) in additions.values {
            guard let position = destination.type.relationshipIndex(inverse), let winner = sources.last else {
                continue
            }
            switch destination.type.mapping.relationships[position].kind {
            case .toMany:
                var present = Set(destination.related[position].map(ObjectIdentifier.init))
                for source in sources where present.insert(ObjectIdentifier(source)).inserted {
                    destination.related[position].append(source)
                }
            case .toOne:
                for loser in destination.related[position] + sources where loser !== winner {
                    dropped[ObjectIdentifier(loser), default: (loser, [])].destinations.insert(
                        ObjectIdentifier(destination))
                }
                destination.related[position] = [winner]
            }
        }
        for (holder, destinations) in dropped.values {
            guard let position = holder.type.relationshipIndex(name) else { continue }
            holder.related[position].removeAll { destinations.contains(ObjectIdentifier($0)) }
        }
        removals = [:]
        additions = [:]
    }
}
