/// One `exec` transformer (``ExecTransformer``) over the run's staged occurrences: every value of
/// its attribute (after the named transformers; `null` and absent values are left out) goes to
/// the program, one JSON value a line, in staging order, and each answer replaces its value where
/// it is staged (its connection keys too; an identity value moves the occurrence's identity).
/// The feeding side and the answering side each walk the occurrences with a cursor of their
/// own, a batch at a time, so nothing of the run is held in memory.
///
/// An answer that does not fit the attribute's type, or an identity another object of the
/// family has, is a record error naming the program and the output line, and rejects the
/// record (``RequiredCheck/reject(_:on:)``).
struct StagedTransform: Sendable {
    let transformer: ExecTransformer
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private var stage: StageTable { layout.tables[layout.store.bindings[transformer.root].table] }
    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The column of the attribute, and the entities (of the transformer's) that map it there.
    private var column: Int? {
        transformer.types.sorted().compactMap { index -> Int? in
            let type = layout.schema.types[index]
            return type.attributeIndex(transformer.attribute).map { layout.store.bindings[index].attributeColumns[$0] }
        }.first
    }

    /// One staged value: the occurrence, its entity and the value.
    struct Item: Sendable {
        var seq: Int64
        var entity: Int
        var value: Value
    }

    /// The next occurrences after `seq` holding a value to transform (at most `limit`).
    func items(after seq: Int64, limit: Int, on engine: any SQLEngine) throws -> [Item] {
        guard let column else { return [] }
        let sql = StagedSQL(stage: stage, dialect: dialect)
        let name = sql.column("s", at: column)
        let entities = transformer.types.sorted().map(String.init).joined(separator: ", ")
        var items: [Item] = []
        try engine.query(
            "SELECT s.\(q("_seq")), s.\(q("_entity")), \(name) FROM \(q(stage.stageName)) AS s "
                + "WHERE s.\(q("_seq")) > ? AND s.\(q("_entity")) IN (\(entities)) AND \(sql.present(column, "s")) "
                + "AND \(name) IS NOT NULL ORDER BY s.\(q("_seq")) LIMIT \(limit)",
            [.int(seq)], types: [.int, .int, stage.table.columns[column].type]
        ) { row in
            guard case .int(let seq) = row[0], case .int(let entity) = row[1] else { return }
            items.append(Item(seq: seq, entity: Int(entity), value: row[2]))
        }
        return items
    }

    /// The JSON line of an item's value, as the attribute's format writes it.
    func line(_ item: Item) -> [UInt8] {
        let type = layout.schema.types[item.entity]
        let format = type.attributeIndex(transformer.attribute).flatMap { type.mapping.attributes[$0].format }
        return Array(JSONWriter.serialize(ValueConverter.json(from: item.value, format: format)).utf8) + [0x0A]
    }

    /// Stores the answer on output line `line` for `item`; returns the rejection of one that does
    /// not fit (with the top-level record to reject).
    func store(_ answer: JSONValue, for item: Item, line: Int, origin: String, on engine: any SQLEngine) throws
        -> (top: Int64, error: RecordError)?
    {
        let type = layout.schema.types[item.entity]
        guard let position = type.attributeIndex(transformer.attribute), let column else { return nil }
        let attribute = type.mapping.attributes[position]
        var message: String?
        switch AttributePlan.typed(
            answer, shown: answer, as: attribute.type, format: attribute.format,
            checksShape: TextShape.isChecked(attribute.type))
        {
        case .success(let value):
            var sets = ["\(q(stage.table.columns[column].name)) = ?"]
            var parameters = [value]
            for key in stage.connectionKeys where key.column == column {
                sets.append("\(q(key.name)) = ?")
                parameters.append(CanonicalKey.value(value, in: key.domain) ?? .null)
            }
            if let part = stage.table.identity.firstIndex(of: column) {
                let key = CanonicalKey.value(value, in: KeyDomain(attribute.type)) ?? .null
                let taken = try engine.count(
                    "SELECT count(*) FROM \(q(stage.stageName)) AS o WHERE o.\(q("_k\(part)")) = ? AND NOT (o.\(q("_k\(part)")) = "
                        + "(SELECT s.\(q("_k\(part)")) FROM \(q(stage.stageName)) AS s WHERE s.\(q("_seq")) = ?))",
                    [key, .int(item.seq)])
                if taken > 0 {
                    message = "another \(type.name) has the identity \(IdentityKey([value]))"
                } else {
                    sets.append("\(q("_k\(part)")) = ?")
                    parameters.append(key)
                }
            }
            if message == nil {
                try engine.execute(
                    "UPDATE \(q(stage.stageName)) SET \(sets.joined(separator: ", ")) WHERE \(q("_seq")) = ?",
                    parameters + [.int(item.seq)])
                return nil
            }
        case .failure(let failure):
            message = failure.message
        }
        let (top, identity) = try describe(item, type: type, on: engine)
        return (
            top,
            RecordError(
                entity: type.name, identity: identity, attribute: attribute.name, value: ValueText.display(answer),
                origin: origin, index: line - 1, message: "\(message ?? "") (output line \(line))")
        )
    }

    /// The occurrence's top-level record and identity as a record error shows it (`id=3`).
    private func describe(_ item: Item, type: EntityType, on engine: any SQLEngine) throws -> (Int64, String) {
        let table = stage.table
        var top: Int64 = item.seq
        var identity = ""
        try engine.query(
            "SELECT \(q("_top")), \(table.identityNames.map { q($0) }.joined(separator: ", ")) FROM \(q(stage.stageName)) "
                + "WHERE \(q("_seq")) = ?", [.int(item.seq)],
            types: [.int] + table.identity.map { table.columns[$0].type }
        ) { row in
            if case .int(let value) = row[0] { top = value }
            identity = zip(type.mapping.identity, row.dropFirst()).map { "\($0)=\(ValueText.display($1))" }
                .joined(separator: ", ")
        }
        return (top, identity)
    }
}
