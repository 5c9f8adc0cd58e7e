/// The state of one ``Connector/connect(_:)`` call: the graph, the
/// destination indexes and the report being written.
final class ConnectRun {
    private let graph: ObjectGraph
    private let indexes: DestinationIndexes
    /// False to find the references without linking (``Connector/unresolved(_:)``).
    private let linking: Bool
    private var report = ConnectReport()
    /// Index lookups and reached objects checked.
    private var lookups = 0

    /// The report of the steps resolved so far.
    var result: ConnectReport {
        var result = report
        result.work = indexes.work
        result.work.lookups = lookups
        return result
    }

    init(graph: ObjectGraph, linking: Bool = true) {
        self.graph = graph
        self.linking = linking
        indexes = DestinationIndexes(graph: graph)
    }

    /// Makes the inverses of nested relationships hold what the map stage set.
    func linkNestedInverses() {
        for type in graph.schema.types {
            for (position, relationship) in type.mapping.relationships.enumerated()
            where relationship.nested && relationship.inverse != nil {
                let writer = LinkWriter(relationship, sources: graph.table(type.index).count)
                for object in objects(of: type) { writer.link(object, at: position, to: object.related(at: position)) }
                writer.flush()
            }
        }
    }

    /// Connects every source of one step.
    func resolve(_ step: ConnectionStep) {
        guard !objects(of: step.source).isEmpty else { return }
        let writer = LinkWriter(step.relationship, sources: graph.table(step.source.index).count)
        let scope = IndexScope(
            destination: step.destination.index, attributes: step.keyAttributes,
            includeSubentities: step.connection.includeSubentities,
            predicate: step.connection.destinationPredicate)
        let index: DestinationIndex? = if case .relationship? = step.end { nil } else { indexes.index(scope) }
        let sourcePositions = step.foreignKeySources.map { step.source.attributeIndex($0) }
        let admitted = scope.admittedTypes(in: graph.schema)
        var links = 0
        for source in objects(of: step.source) where step.connection.sourcePredicate.matches(source) {
            let reference: Reference
            switch step.end {
            case nil: reference = foreignKeyReference(source, positions: sourcePositions)
            case .attribute(let name)?:
                reference = identityReference(
                    reached(from: source, through: step.through), attribute: name, arity: scope.attributes.count)
            case .relationship(let name)?:
                reference = .objects(reached(from: source, through: step.through + [name]))
            }
            let found: [GraphObject]
            var missing: [Value] = []
            switch reference {
            case .unknown:
                continue
            case .scalar(let value):
                guard let index else { continue }
                found = destinations(of: value, in: index, scope: scope, missing: &missing)
            case .values(let tuples):
                guard let index else { continue }
                found = destinations(of: tuples, in: index, scope: scope, missing: &missing)
            case .objects(let reached):
                found = filtered(reached, scope: scope, admitted: admitted)
            }
            if !missing.isEmpty {
                report.dangling.append(
                    DanglingReference(
                        entity: source.type.name, identity: source.identity, relationship: step.relationship.name,
                        destination: step.destination.name, attributes: scope.attributes, values: missing,
                        origin: source.origin))
            }
            guard linking else { continue }
            links += link(source, to: found, step: step, scope: scope, reference: reference, writer: writer)
        }
        writer.flush()
        if links > 0 { report.counts[step.source.name, default: 0] += links }
    }

    /// The objects of exactly `type` that the run fetched, as handles made on the way
    /// (stored objects are destinations only: their own links are the store's).
    private func objects(of type: EntityType) -> some Collection<GraphObject> {
        let table = graph.table(type.rootIndex)
        let stored = graph.storedSource
        return table.rows.filter { row in
            table.type(of: row) == type.index && (stored == nil || table.origin(of: row).source != stored)
        }
            .map { [graph] in GraphObject(graph: graph, root: type.rootIndex, row: $0) }
    }

    // MARK: - References

    /// What one source refers to.
    private enum Reference {
        /// A value the payload did not carry: the relationship stays as it is.
        case unknown
        /// One key value to look up (a lone foreign key's usual case, without a tuple array).
        case scalar(Value)
        /// Key tuples to look up (none: connect to nothing).
        case values([[Value]])
        /// The destinations a key path reached.
        case objects([GraphObject])
    }

    /// The tuples of a foreign key: the product of each pair's members (null members dropped).
    private func foreignKeyReference(_ source: GraphObject, positions: [Int?]) -> Reference {
        if positions.count == 1, let position = positions[0], let value = source.value(at: position) {
            switch value {
            case .array: break
            case .null: return .values([])
            default: return .scalar(value)
            }
        }
        var tuples: [[Value]] = [[]]
        for position in positions {
            guard let position, let value = source.value(at: position) else { return .unknown }
            if case .array(let items) = value {
                let members = items.filter { !$0.isNull }
                tuples = tuples.flatMap { tuple in members.map { tuple + [$0] } }
            } else if value.isNull {
                return .values([])
            } else {
                for index in tuples.indices { tuples[index].append(value) }
            }
        }
        return .values(tuples)
    }

    /// The objects a path of relationships reaches from the source.
    private func reached(from source: GraphObject, through names: [String]) -> [GraphObject] {
        var objects = [source]
        for name in names {
            objects = objects.flatMap { object in object.type.relationshipIndex(name).map(object.related(at:)) ?? [] }
        }
        return objects
    }

    /// The identities a key path reads on the objects it reached: unknown when
    /// none of them carried the attribute, none when it reached no object.
    private func identityReference(_ objects: [GraphObject], attribute: String, arity: Int) -> Reference {
        let values = objects.compactMap { $0[attribute: attribute] }
        if values.isEmpty, !objects.isEmpty { return .unknown }
        return .values(values.flatMap { Self.identityTuples($0, arity: arity) })
    }

    /// The identity tuples a value denotes: members of an array for a single
    /// identity; for a composite one, an array of `arity` scalars or an array of such arrays.
    private static func identityTuples(_ value: Value, arity: Int) -> [[Value]] {
        guard case .array(let items) = value else { return value.isNull ? [] : [[value]] }
        if arity == 1 { return items.filter { !$0.isNull }.map { [$0] } }
        if items.count == arity, !items.contains(where: { if case .array = $0 { true } else { false } }) {
            return [items]
        }
        return items.flatMap { identityTuples($0, arity: arity) }
    }

    // MARK: - Matching

    /// The destinations of one key value; a value matching nothing goes to `missing`.
    private func destinations(
        of value: Value, in index: DestinationIndex, scope: IndexScope, missing: inout [Value]
    ) -> [GraphObject] {
        lookups += 1
        guard let key = MatchKey(value).map(IndexKey.single) else { return [] }
        let matches = index[key]
        if matches.isEmpty, !indexes.isFiltered(key, scope: scope) { missing.append(value) }
        return matches
    }

    /// The destinations of every tuple, in order and once each; tuples matching nothing go to `missing`.
    private func destinations(
        of tuples: [[Value]], in index: DestinationIndex, scope: IndexScope, missing: inout [Value]
    ) -> [GraphObject] {
        var found: [GraphObject] = []
        var seen = Set<GraphObject>()
        lookups += tuples.count
        for tuple in tuples {
            guard let key = IndexKey(tuple) else { continue }
            let matches = index[key]
            if matches.isEmpty {
                if !indexes.isFiltered(key, scope: scope) { missing.append(Self.value(tuple)) }
            } else if tuples.count == 1 {
                found = matches
            } else {
                for match in matches where seen.insert(match).inserted { found.append(match) }
            }
        }
        return found
    }

    /// The reached objects the scope admits (entity and `where`), once each.
    private func filtered(_ objects: [GraphObject], scope: IndexScope, admitted: [Bool]) -> [GraphObject] {
        var seen = Set<GraphObject>()
        lookups += objects.count
        return objects.filter { object in
            admitted[object.type.index] && scope.predicate.matches(object)
                && seen.insert(object).inserted
        }
    }

    /// Sets the relationship (a to-one matching several objects is an error and stays empty).
    ///
    /// - Returns: the number of links the relationship holds.
    private func link(
        _ source: GraphObject, to found: [GraphObject], step: ConnectionStep, scope: IndexScope,
        reference: Reference, writer: LinkWriter
    ) -> Int {
        var destinations = found
        switch step.relationship.kind {
        case .toOne where found.count > 1:
            let (attributes, searched): ([String], [Value]) =
                switch reference {
                case .unknown: ([], [])
                case .scalar(let value): (scope.attributes, [value])
                case .values(let tuples): (scope.attributes, tuples.map(Self.value))
                case .objects: ([], found.map { Self.value($0.identity.values) })
                }
            report.errors.append(
                ConnectError(
                    entity: source.type.name, identity: source.identity, relationship: step.relationship.name,
                    destination: step.destination.name, attributes: attributes, values: searched,
                    matches: found.count,
                    origin: source.origin))
            destinations = []
        case .toMany where step.relationship.assignment == .union:
            let previous = source.related(at: step.position)
            let present = Set(previous)
            destinations = previous + found.filter { !present.contains($0) }
        default:
            break
        }
        writer.link(source, at: step.position, to: destinations)
        return destinations.count
    }

    /// A tuple as one value: the value alone, or an array of several.
    private static func value(_ tuple: [Value]) -> Value {
        tuple.count == 1 ? tuple[0] : .array(tuple)
    }
}
