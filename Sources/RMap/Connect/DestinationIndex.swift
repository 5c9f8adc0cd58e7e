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
/// no source member equals: destination keys are scalars. Objects are kept as
/// rows of the destination's table; integer keys (the usual `id`) in a map of
/// their own, without an enum per key. A key that is the whole table's lone
/// `int` identity (the usual `id`) needs no hash index of its own: an array
/// over the identities' range answers when they lie close together
/// (``DenseIdentityRows``), the table's identity map otherwise.
final class DestinationIndex {
    /// Where the rows of a whole table's lone integer identities are looked up.
    private enum Identities {
        case dense(DenseIdentityRows)
        case map(ObjectTable)
    }

    private let graph: ObjectGraph
    private let root: Int
    /// Set when the table's identities serve as the index.
    private let identities: Identities?
    /// The first object of each integer key.
    private var integers: [Int64: Int32] = [:]
    /// The first object of each other key.
    private var others: [IndexKey: Int32] = [:]
    /// Further objects of keys that several objects share, in the graph's order.
    private var more: [IndexKey: [Int32]] = [:]
    /// How many objects of the table were read.
    private(set) var scanned = 0

    /// Indexes the objects of `scope` in `graph`.
    ///
    /// - Complexity: O(n) in the objects of the destination's table.
    init(scope: IndexScope, graph: ObjectGraph) {
        let schema = graph.schema
        let destination = schema.types[scope.destination]
        self.graph = graph
        root = destination.rootIndex
        let table = graph.table(root)
        if Self.identityServes(scope, destination: destination, table: table, schema: schema) {
            identities = DenseIdentityRows(table).map(Identities.dense) ?? .map(table)
            scanned = table.count
            return
        }
        identities = nil
        let members = scope.admittedTypes(in: schema)
        var positions: [[Int]?] = Array(repeating: nil, count: schema.types.count)
        var values: [Value] = []
        table.forEachRow { row in
            guard members[table.type(of: row)] else { return }
            scanned += 1
            let type = schema.types[table.type(of: row)]
            if positions[type.index] == nil {
                positions[type.index] = scope.attributes.compactMap { type.attributeIndex($0) }
            }
            let object = GraphObject(graph: graph, root: root, row: row)
            guard let indices = positions[type.index], indices.count == scope.attributes.count,
                scope.predicate.matches(object)
            else { return }
            values.removeAll(keepingCapacity: true)
            for index in indices { values.append(object.value(at: index) ?? .null) }
            guard let key = IndexKey(values) else { return }
            add(Int32(row), key)
        }
    }

    /// True when the scope is a whole table keyed by its lone `int` identity and every identity is an integer.
    private static func identityServes(
        _ scope: IndexScope, destination: EntityType, table: ObjectTable, schema: GraphSchema
    ) -> Bool {
        guard scope.isUnfiltered(in: schema), scope.attributes == destination.mapping.identity,
            let position = destination.identityIndices.first, destination.identityIndices.count == 1,
            destination.mapping.attributes[position].type == .int
        else { return false }
        return !table.hasOtherIdentities
    }

    private func add(_ row: Int32, _ key: IndexKey) {
        if case .single(.integer(let number)) = key {
            if integers[number] == nil {
                integers[number] = row
                return
            }
        } else if others[key] == nil {
            others[key] = row
            return
        }
        more[key, default: []].append(row)
    }

    /// The first object whose key equals `key` (in the graph's order).
    private func first(_ key: IndexKey) -> Int32? {
        guard case .single(.integer(let number)) = key else { return identities == nil ? others[key] : nil }
        switch identities {
        case .dense(let rows)?: return rows.row(identity: number)
        case .map(let table)?: return table.row(integerIdentity: number).map(Int32.init)
        case nil: return integers[number]
        }
    }

    /// True when an object's key equals `key`.
    func contains(_ key: IndexKey) -> Bool { first(key) != nil }

    /// Calls `body` with each object whose key equals `key`, in the graph's order (no array for
    /// the usual lone one).
    func forEachMatch(_ key: IndexKey, _ body: (GraphObject) -> Void) {
        guard let first = first(key) else { return }
        body(GraphObject(graph: graph, root: root, row: Int(first)))
        guard !more.isEmpty, let rows = more[key] else { return }
        for row in rows { body(GraphObject(graph: graph, root: root, row: Int(row))) }
    }
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
        return index(table).contains(key)
    }
}
