/// The key of an index lookup: one value's key, or a tuple's when several attributes are matched.
enum IndexKey: Hashable {
    case single(MatchKey)
    case tuple([MatchKey])

    /// The key of a value tuple; `nil` when a value is null (it matches nothing).
    init?(_ values: [Value]) {
        if values.count == 1 {
            guard let key = MatchKey(values[0]) else { return nil }
            self = .single(key)
            return
        }
        var keys: [MatchKey] = []
        keys.reserveCapacity(values.count)
        for value in values {
            guard let key = MatchKey(value) else { return nil }
            keys.append(key)
        }
        self = .tuple(keys)
    }
}

/// What an index covers: which destinations, keyed by which attributes.
struct IndexScope: Hashable {
    /// The destination entity's position in the schema.
    var destination: Int
    /// The destination attributes forming the key.
    var attributes: [String]
    /// Whether objects of entities extending the destination are indexed too.
    var includeSubentities: Bool
    /// Only objects meeting it are indexed (`where`).
    var predicate: Predicate

    /// Per entity position: whether the scope admits its objects.
    func admittedTypes(in schema: GraphSchema) -> [Bool] {
        let destination = schema.types[self.destination]
        var admitted = Array(repeating: false, count: schema.types.count)
        for type in includeSubentities ? schema.family(of: destination) : [destination] {
            admitted[type.index] = true
        }
        return admitted
    }

    /// True when the scope keeps every object of the destination's table.
    func isUnfiltered(in schema: GraphSchema) -> Bool {
        includeSubentities && predicate.isEmpty && schema.types[destination].rootIndex == destination
    }
}

/// A hash index of destination objects by the values of some attributes, so
/// each reference costs one lookup instead of a scan.
///
/// Objects whose key holds a null or missing value are not indexed: a null
/// never matches. Array-valued attributes are keys only as whole arrays, which
/// no source member equals: destination keys are scalars.
struct DestinationIndex {
    private var objects: [IndexKey: [GraphObject]] = [:]
    /// How many objects of the table were read.
    private(set) var scanned = 0

    /// Indexes the objects of `scope` in `graph`.
    ///
    /// - Complexity: O(n) in the objects of the destination's table.
    init(scope: IndexScope, graph: ObjectGraph) {
        let schema = graph.schema
        let destination = schema.types[scope.destination]
        let members = scope.admittedTypes(in: schema)
        var positions: [[Int]?] = Array(repeating: nil, count: schema.types.count)
        var values: [Value] = []
        for object in graph.objects(root: destination.rootIndex) where members[object.type.index] {
            scanned += 1
            let type = object.type
            if positions[type.index] == nil {
                positions[type.index] = scope.attributes.compactMap { type.attributeIndex($0) }
            }
            guard let indices = positions[type.index], indices.count == scope.attributes.count,
                scope.predicate.matches(object)
            else { continue }
            values.removeAll(keepingCapacity: true)
            for index in indices { values.append(object.values[index] ?? .null) }
            guard let key = IndexKey(values) else { continue }
            objects[key, default: []].append(object)
        }
    }

    /// The objects whose key equals `key`, in the graph's order.
    subscript(key: IndexKey) -> [GraphObject] { objects[key] ?? [] }
}

/// The indexes of one connect run, each built once per scope and shared by
/// every connection that needs it.
final class DestinationIndexes {
    private let graph: ObjectGraph
    private var built: [IndexScope: DestinationIndex] = [:]
    /// The indexes built and the objects they read.
    private(set) var work = ConnectWork()

    init(graph: ObjectGraph) {
        self.graph = graph
    }

    /// The index of `scope`, built on first use.
    func index(_ scope: IndexScope) -> DestinationIndex {
        if let index = built[scope] { return index }
        let index = DestinationIndex(scope: scope, graph: graph)
        built[scope] = index
        work.indexesBuilt += 1
        work.objectsIndexed += index.scanned
        return index
    }

    /// True when `key` matches an object of the destination's table that the
    /// scope leaves out (another entity, or `where`): a reference the rule
    /// filters, not a dangling one.
    func isFiltered(_ key: IndexKey, scope: IndexScope) -> Bool {
        if scope.isUnfiltered(in: graph.schema) { return false }
        let root = graph.schema.types[scope.destination].rootIndex
        let table = IndexScope(
            destination: root, attributes: scope.attributes, includeSubentities: true, predicate: Predicate())
        return !index(table)[key].isEmpty
    }
}
