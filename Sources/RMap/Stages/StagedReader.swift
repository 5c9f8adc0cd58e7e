/// Reads the run's staged objects for a stage, on the store's thread (``StagedObjects``): a
/// batch of an entity's objects, and the objects a relationship relates, through the run's links
/// (``RunLinks``): the run's own objects with the values their payloads carried, and stored ones
/// (a connection to a table the run did not fetch completely) with their stored values.
/// Valid only inside the `body` it is given to.
public struct StagedReader {
    let engine: any SQLEngine
    let layout: StageLayout
    let links: RunLinks

    private func q(_ name: String) -> String { engine.dialect.quote(name) }

    /// The objects related to `object` through `relationship`, in the relationship's order.
    ///
    /// - Throws: ``GraphError/unknownEntity(_:)``, ``GraphError/unknownRelationship(entity:name:)``,
    ///   or the engine's errors.
    public func related(_ object: StagedObject, _ relationship: String) throws -> [StagedObject] {
        guard let type = layout.schema.type(named: object.entity) else { throw GraphError.unknownEntity(object.entity) }
        guard let mapping = type.mapping.relationship(named: relationship),
            let destination = layout.schema.type(named: mapping.destination)
        else { throw GraphError.unknownRelationship(entity: object.entity, name: relationship) }
        guard let query = links.query(entity: type, relationship: relationship) else { return [] }
        let destinationTable = layout.table(of: destination).table
        let sources = object.identity.indices.map { "l.\(q("s\($0)")) = ?" }.joined(separator: " AND ")
        var identities: [[Value]] = []
        try engine.query(
            "SELECT \(destinationTable.identity.indices.map { "l.\(q("d\($0)"))" }.joined(separator: ", ")) FROM (\(query)) AS l "
                + "WHERE \(sources) ORDER BY l.\(q("_pos"))",
            object.identity, types: destinationTable.identity.map { destinationTable.columns[$0].type }
        ) { identities.append($0) }
        var seen = Set<IdentityKey>()
        return try identities.filter { seen.insert(IdentityKey($0)).inserted }.compactMap {
            try self.object(of: destination, identity: $0)
        }
    }

    /// The object of the to-one `relationship` (a to-many's first), `nil` when there is none.
    public func relatedObject(_ object: StagedObject, _ relationship: String) throws -> StagedObject? {
        try related(object, relationship).first
    }

    /// The run's object of `type`'s family with this identity, else the stored one.
    func object(of type: EntityType, identity: [Value]) throws -> StagedObject? {
        try staged(of: type, identity: identity) ?? stored(layout.table(of: type), identity: identity)
    }

    /// The run's object of `type`'s family with this identity.
    func staged(of type: EntityType, identity: [Value]) throws -> StagedObject? {
        let stage = layout.table(of: type)
        let match = stage.table.identityNames.map { "r.\(q($0)) = ?" }.joined(separator: " AND ")
        return try read(stage, where: match, identity, limit: 1).objects.first
    }

    /// A batch of `type`'s family's run objects staged after `last`: the objects and the last one's place.
    func batch(of type: EntityType, after last: Int64, limit: Int) throws -> (objects: [StagedObject], last: Int64) {
        let stage = layout.table(of: type)
        let family = layout.schema.family(of: type).map { String($0.index) }.joined(separator: ", ")
        return try read(
            stage, where: "r.\(q("_entity")) IN (\(family)) AND r.\(q("_seq")) > ?", [.int(last)], limit: limit)
    }

    /// The merged rows of `stage` that `condition` selects, in staging order.
    private func read(_ stage: StageTable, where condition: String, _ parameters: [Value], limit: Int) throws
        -> (objects: [StagedObject], last: Int64)
    {
        let table = stage.table
        let masks = stage.maskColumns.map { "r.\(q($0.name))" }
        let columns = table.columns.map { "r.\(q($0.name))" }
        var objects: [StagedObject] = []
        var last: Int64 = 0
        try engine.query(
            "SELECT r.\(q("_seq")), r.\(q("_entity")), \((masks + columns).joined(separator: ", ")) FROM \(q(stage.rowsName)) AS r "
                + "WHERE \(condition) ORDER BY r.\(q("_seq")) LIMIT \(limit)",
            parameters, types: [.int, .int] + stage.maskColumns.map(\.type) + table.columns.map(\.type)
        ) { row in
            guard case .int(let seq) = row[0], case .int(let index) = row[1],
                layout.schema.types.indices.contains(Int(index))
            else { return }
            last = seq
            let type = layout.schema.types[Int(index)]
            let bits = row[2..<(2 + stage.maskCount)].map { value -> Int64 in
                if case .int(let bits) = value { return bits }
                return 0
            }
            let values = row.dropFirst(2 + stage.maskCount)
            objects.append(
                make(type, identity: table.identity.map { values[values.startIndex + $0] }) { column in
                    let (mask, bit) = StageTable.bit(of: column)
                    return bits[mask] & bit != 0 ? values[values.startIndex + column] : nil
                })
        }
        return (objects, last)
    }

    /// The stored object of `stage`'s table with this identity, its stored values all carried.
    private func stored(_ stage: StageTable, identity: [Value]) throws -> StagedObject? {
        let table = stage.table
        let family = layout.families[stage.position]
        let match = table.identityNames.map { "\(q($0)) = ?" }.joined(separator: " AND ")
        var found: StagedObject?
        try engine.query(
            "SELECT \(engine.dialect.list(table.columns.map(\.name))) FROM \(q(table.name)) WHERE \(match)", identity,
            types: table.columns.map(\.type)
        ) { row in
            let type =
                table.discriminator.flatMap { column in
                    family.first { .string(layout.store.bindings[$0.index].typeValue) == row[column] }
                } ?? family[0]
            found = make(type, identity: table.identity.map { row[$0] }) { row[$0] }
        }
        return found
    }

    private func make(_ type: EntityType, identity: [Value], value: (Int) -> Value?) -> StagedObject {
        let binding = layout.store.bindings[type.index]
        var values: [String: Value] = [:]
        for (position, attribute) in type.mapping.attributes.enumerated() {
            if let value = value(binding.attributeColumns[position]) { values[attribute.name] = value }
        }
        return StagedObject(
            entity: type.name, identity: identity, values: values, attributes: type.mapping.attributes.map(\.name),
            identityAttributes: type.mapping.identity)
    }

    /// Stages the values stages set, as payload values (their presence bits and connection keys too).
    func stage(_ objects: [StagedObject]) throws {
        for object in objects {
            guard let type = layout.schema.type(named: object.entity) else { continue }
            let stage = layout.table(of: type)
            let binding = layout.store.bindings[type.index]
            var sets: [String] = []
            var parameters: [Value] = []
            var present: [Int] = []
            for (name, value) in object.changes.sorted(by: { $0.key < $1.key }) {
                guard let position = type.attributeIndex(name) else { continue }
                let column = binding.attributeColumns[position]
                sets.append("\(q(stage.table.columns[column].name)) = ?")
                parameters.append(value)
                for key in stage.connectionKeys where key.column == column {
                    sets.append("\(q(key.name)) = ?")
                    parameters.append(CanonicalKey.value(value, in: key.domain) ?? .null)
                }
                present.append(column)
            }
            sets += StagedSQL(stage: stage, dialect: engine.dialect).markPresent(present, q(stage.rowsName))
            let match = stage.table.identityNames.map { "\(q($0)) = ?" }.joined(separator: " AND ")
            try engine.execute(
                "UPDATE \(q(stage.rowsName)) SET \(sets.joined(separator: ", ")) WHERE \(match)",
                parameters + object.identity)
        }
    }
}
