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
                forEachObject(of: type) { object in
                    writer.link(object, at: position, to: object.related(at: position))
                }
                writer.flush()
            }
        }
    }

    /// Connects every source of one step.
    func resolve(_ step: ConnectionStep) {
        guard hasObjects(of: step.source) else { return }
        let writer = LinkWriter(step.relationship, sources: graph.table(step.source.index).count)
        let scope = IndexScope(
            destination: step.destination.index, attributes: step.keyAttributes,
            includeSubentities: step.connection.includeSubentities,
            predicate: step.connection.destinationPredicate)
        let index: DestinationIndex? = if case .relationship? = step.end { nil } else { indexes.index(scope) }
        let sourcePositions = step.foreignKeySources.map { step.source.attributeIndex($0) }
        let admitted = scope.admittedTypes(in: graph.schema)
        var links = 0
        forEachObject(of: step.source) { source in
            guard step.connection.sourcePredicate.matches(source) else { return }
            let reference: Reference
            switch step.end {
            case nil: reference = foreignKeyReference(source, positions: sourcePositions)
            case .attribute(let name)?:
                reference = identityReference(
                    reached(from: source, through: step.through), attribute: name, arity: scope.attributes.count)
            case .relationship(let name)?:
                reference = .objects(reached(from: source, through: step.through + [name]))
            }
            let found: FoundDestinations
            var missing: [Value] = []
            switch reference {
            case .unknown:
                return
            case .scalar(let value):
                guard let index else { return }
                found = destinations(
                    of: CollectionOfOne(value), in: index, scope: scope, missing: &missing,
                    key: { MatchKey($0).map(IndexKey.single) }, value: { $0 })
            case .members(let items):
                guard let index else { return }
                found = destinations(
                    of: items, in: index, scope: scope, missing: &missing,
                    key: { MatchKey($0).map(IndexKey.single) }, value: { $0 })
            case .values(let tuples):
                guard let index else { return }
                found = destinations(
                    of: tuples, in: index, scope: scope, missing: &missing, key: IndexKey.init, value: Self.value)
            case .objects(let reached):
                found = FoundDestinations(filtered(reached, scope: scope, admitted: admitted))
            }
            if !missing.isEmpty {
                report.dangling.append(
                    DanglingReference(
                        entity: source.type.name, identity: source.identity, relationship: step.relationship.name,
                        destination: step.destination.name, attributes: scope.attributes, values: missing,
                        origin: source.origin))
            }
            guard linking else { return }
            links += link(source, to: found, step: step, scope: scope, reference: reference, writer: writer)
        }
        writer.flush()
        if links > 0 { report.counts[step.source.name, default: 0] += links }
    }

    /// Calls `body` with each object of exactly `type` that the run fetched, in row order
    /// (stored objects are destinations only: their own links are the store's).
    private func forEachObject(of type: EntityType, _ body: (GraphObject) -> Void) {
        let table = graph.table(type.rootIndex)
        table.forEachRow { row in
            if isFetched(row, of: type, in: table) { body(GraphObject(graph: graph, root: type.rootIndex, row: row)) }
        }
    }

    /// True when the run fetched an object of exactly `type`.
    private func hasObjects(of type: EntityType) -> Bool {
        let table = graph.table(type.rootIndex)
        return table.rows.contains { isFetched($0, of: type, in: table) }
    }

    private func isFetched(_ row: Int, of type: EntityType, in table: ObjectTable) -> Bool {
        guard table.type(of: row) == type.index else { return false }
        let stored = graph.storedSource
        return stored == nil || table.origin(of: row).source != stored
    }

    // MARK: - References

    /// What one source refers to.
    private enum Reference {
        /// A value the payload did not carry: the relationship stays as it is.
        case unknown
        /// One key value to look up (a lone foreign key's usual case, without a tuple array).
        case scalar(Value)
        /// The members of a lone foreign key's array, each a key to look up (nulls match nothing).
        case members([Value])
        /// Key tuples to look up (none: connect to nothing).
        case values([[Value]])
        /// The destinations a key path reached.
        case objects([GraphObject])
    }

    /// The tuples of a foreign key: the product of each pair's members (null members dropped).
    private func foreignKeyReference(_ source: GraphObject, positions: [Int?]) -> Reference {
        if positions.count == 1, let position = positions[0], let value = source.value(at: position) {
            switch value {
            case .array(let items): return .members(items)
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

    /// The destinations of each key (a value or a tuple), in order and once each; keys matching
    /// nothing go to `missing`.
    private func destinations<Keys: Collection>(
        of keys: Keys, in index: DestinationIndex, scope: IndexScope, missing: inout [Value],
        key: (Keys.Element) -> IndexKey?, value: (Keys.Element) -> Value
    ) -> FoundDestinations {
        var found = FoundDestinations.none
        for element in keys {
            guard let key = key(element) else { continue }
            lookups += 1
            let before = found.count
            index.forEachMatch(key) { found.append($0) }
            if found.count == before, !indexes.isFiltered(key, scope: scope) { missing.append(value(element)) }
        }
        if keys.count > 1 { found.removeRepeats() }
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
        _ source: GraphObject, to found: FoundDestinations, step: ConnectionStep, scope: IndexScope,
        reference: Reference, writer: LinkWriter
    ) -> Int {
        switch (step.relationship.kind, found) {
        case (.toOne, .several(let objects)):
            let (attributes, searched): ([String], [Value]) =
                switch reference {
                case .unknown: ([], [])
                case .scalar(let value): (scope.attributes, [value])
                case .members(let items): (scope.attributes, items.filter { !$0.isNull })
                case .values(let tuples): (scope.attributes, tuples.map(Self.value))
                case .objects: ([], objects.map { Self.value($0.identity.values) })
                }
            report.errors.append(
                ConnectError(
                    entity: source.type.name, identity: source.identity, relationship: step.relationship.name,
                    destination: step.destination.name, attributes: attributes, values: searched,
                    matches: objects.count,
                    origin: source.origin))
            writer.link(source, at: step.position, to: nil)
            return 0
        case (.toMany, _) where step.relationship.assignment == .union:
            let previous = source.related(at: step.position)
            let present = Set(previous)
            let destinations = previous + found.objects.filter { !present.contains($0) }
            writer.link(source, at: step.position, to: destinations)
            return destinations.count
        case (_, .several(let objects)):
            writer.link(source, at: step.position, to: objects)
            return objects.count
        default:
            writer.link(source, at: step.position, to: found.first)
            return found.count
        }
    }

    /// A tuple as one value: the value alone, or an array of several.
    private static func value(_ tuple: [Value]) -> Value {
        tuple.count == 1 ? tuple[0] : .array(tuple)
    }
}
