/// The stored objects that a run's connections name and the run did not
/// fetch: read by key (an identity lookup, or one scan of the table for other
/// attributes) and added to the graph as destinations (``ObjectGraph/addStored(_:values:)``).
///
/// Only tables that the run did not fetch completely are asked: a complete
/// fetch has seen every object the server has.
struct StoredDestinations {
    /// The keys looked for in one table, by the destination attributes they match.
    private struct Lookup {
        var root: EntityType
        var attributes: [String]
        var keys: [IndexKey: [Value]] = [:]
    }

    private var lookups: [Lookup] = []

    /// The lookups of `graph`'s references that no object of the run answers.
    init(graph: ObjectGraph, request: WriteRequest) {
        let schema = graph.schema
        let partial = Self.partialRoots(of: schema, request: request)
        guard !partial.isEmpty else { return }
        var positions: [[String]: Int] = [:]
        for reference in Connector(schema: schema).unresolved(graph, roots: partial) {
            guard let destination = schema.type(named: reference.destination) else { continue }
            let root = schema.root(of: destination)
            let scope = [root.name] + reference.attributes
            let position = positions[scope] ?? lookups.count
            if position == lookups.count {
                positions[scope] = position
                lookups.append(Lookup(root: root, attributes: reference.attributes))
            }
            for value in reference.values {
                let tuple = reference.attributes.count == 1 ? [value] : value.members
                guard tuple.count == reference.attributes.count, let key = IndexKey(tuple) else { continue }
                lookups[position].keys[key] = tuple
            }
        }
    }

    /// The indices of the root entities that `request` does not say were fetched completely:
    /// the only ones whose stored objects a run may connect to.
    static func partialRoots(of schema: GraphSchema, request: WriteRequest) -> Set<Int> {
        Set(
            schema.roots.filter { root in
                !schema.family(of: root).contains { request.completeEntities.contains($0.name) }
            }.map(\.index))
    }

    /// True when nothing is to be looked up.
    var isEmpty: Bool { lookups.isEmpty }

    /// Reads the objects named from `backend` (inside a transaction) and adds them to `graph`.
    func load(into graph: ObjectGraph, backend: any StoreBackend, layout: StoreLayout) throws {
        for lookup in lookups {
            let table = layout.table(of: lookup.root)
            let columns = lookup.attributes.compactMap { name in
                table.roles.firstIndex(of: .attribute(name))
            }
            guard columns.count == lookup.attributes.count else { continue }
            let rows =
                columns == table.identity
                ? try identified(lookup, table: table, backend: backend)
                : try scanned(lookup, columns: columns, table: table, backend: backend)
            for row in rows { add(row, of: lookup.root, table: table, layout: layout, to: graph) }
        }
    }

    /// The rows whose identity is a key: fetched by identity, a batch at a time.
    private func identified(
        _ lookup: Lookup, table: TableLayout, backend: any StoreBackend
    ) throws -> [[Value]] {
        let identities = lookup.keys.values.compactMap { tuple -> [Value]? in
            var identity: [Value] = []
            for (value, column) in zip(tuple, table.identity) {
                // Keys compare as connecting does ("1" is 1): stored in the column's own type.
                let json = ValueConverter.json(from: value)
                guard let typed = ValueConverter.value(from: json, as: table.columns[column].type) else { return nil }
                identity.append(typed)
            }
            return identity
        }
        var rows: [[Value]] = []
        var start = 0
        while start < identities.count {
            let batch = Array(identities[start..<min(start + PersistWriter.batchSize, identities.count)])
            rows += try backend.fetch(table, identities: batch).values.compactMap(\.row)
            start += batch.count
        }
        return rows
    }

    /// The rows whose values in `columns` are a key: one scan of the table.
    private func scanned(
        _ lookup: Lookup, columns: [Int], table: TableLayout, backend: any StoreBackend
    ) throws -> [[Value]] {
        try backend.scanRows(table).map(\.values).filter { row in
            IndexKey(columns.map { row[$0] }).map { lookup.keys[$0] != nil } ?? false
        }
    }

    /// Adds a stored row as an object of the entity its `type` column names.
    private func add(
        _ row: [Value], of root: EntityType, table: TableLayout, layout: StoreLayout, to graph: ObjectGraph
    ) {
        let family = graph.schema.family(of: root)
        let type: EntityType?
        if let discriminator = table.discriminator {
            type = family.first { .string(layout.bindings[$0.index].typeValue) == row[discriminator] }
        } else {
            type = root
        }
        guard let type else { return }
        graph.addStored(type, values: layout.bindings[type.index].attributeColumns.map { row[$0] })
    }
}

extension BackendStore {
    /// Adds to `graph` the stored objects that its connections name and the run did not fetch.
    public func addStoredDestinations(to graph: ObjectGraph, request: WriteRequest) throws -> Bool {
        let destinations = StoredDestinations(graph: graph, request: request)
        guard !destinations.isEmpty else { return true }
        let layout = StoreLayout(schema: graph.schema)
        // Read only: rolled back, so a dry run leaves no table behind.
        try backend.transaction(layout, commit: false) {
            try destinations.load(into: graph, backend: backend, layout: layout)
        }
        return true
    }
}
