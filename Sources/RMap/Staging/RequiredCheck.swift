/// `required` on objects new to the store, checked on the staged occurrences in the engine
/// (docs/mapping.md, "Null, missing and defaults"): an occurrence is rejected when its identity
/// is neither stored nor met in an earlier record of the run that stands, it is no tombstone, and
/// one of its entity's required attributes is null, or missing without a default. A rejected
/// record is rejected whole: every occurrence of its top-level record leaves the stage (members
/// and nested links with it), which may make a later record the first of an identity, so the
/// check runs again until it rejects nothing.
struct RequiredCheck {
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// What was rejected: the errors, and the rejected occurrences by entity index.
    struct Rejections {
        var errors: [RecordError] = []
        var counts: [Int: Int] = [:]
    }

    /// Whether any entity of `schema` has a required attribute.
    static func isNeeded(in schema: GraphSchema) -> Bool {
        schema.types.contains { type in type.mapping.attributes.contains(where: \.required) }
    }

    /// Rejects the records whose new objects lack a required value.
    func run(on engine: any SQLEngine) throws -> Rejections {
        var rejections = Rejections()
        guard Self.isNeeded(in: layout.schema) else { return rejections }
        let origins = try OriginNames(engine: engine)
        for stage in layout.tables {
            let keys = dialect.list(stage.keyColumns.map(\.name) + ["_seq"])
            try engine.execute("CREATE INDEX \(q("\(stage.stageName)_keys")) ON \(q(stage.stageName)) (\(keys))")
        }
        while true {
            var tops = Set<Int64>()
            for stage in layout.tables {
                for type in layout.families[stage.position] {
                    for attribute in type.mapping.attributes.indices where type.mapping.attributes[attribute].required {
                        try find(type, attribute, in: stage, origins: origins, on: engine) { top, error in
                            tops.insert(top)
                            rejections.errors.append(error)
                        }
                    }
                }
            }
            guard !tops.isEmpty else { return rejections }
            try StageRejection(layout: layout, dialect: dialect).reject(tops, counts: &rejections.counts, on: engine)
        }
    }

    /// The first occurrences of new identities of exactly `type` that lack `attribute`.
    private func find(
        _ type: EntityType, _ attribute: Int, in stage: StageTable, origins: OriginNames, on engine: any SQLEngine,
        _ found: (Int64, RecordError) -> Void
    ) throws {
        let sql = StagedSQL(stage: stage, dialect: dialect)
        let mapping = type.mapping.attributes[attribute]
        let column = layout.store.bindings[type.index].attributeColumns[attribute]
        let table = stage.table
        let value = sql.column("o", at: column)
        let lacking =
            mapping.defaultValue == nil
            ? "(NOT (\(sql.present(column, "o"))) OR \(value) IS NULL)" : "(\(sql.present(column, "o")) AND \(value) IS NULL)"
        let earlier = "SELECT 1 FROM \(q(stage.stageName)) AS e WHERE "
            + stage.keyColumns.map { "e.\(q($0.name)) = o.\(q($0.name))" }.joined(separator: " AND ")
            + " AND e.\(q("_seq")) < o.\(q("_seq"))"
        var condition = "o.\(q("_entity")) = \(type.index) AND \(lacking) AND NOT \(sql.exists(in: table.name, like: "o")) "
            + "AND NOT \(sql.exists(in: table.baseName, like: "o")) AND NOT EXISTS (\(earlier))"
        var parameters: [Value] = []
        if let tombstone = type.mapping.deletion.tombstone {
            let predicate = PredicateSQL.condition(
                tombstone, of: type, alias: "o", binding: layout.store.bindings[type.index], table: table, dialect: dialect)
            condition += " AND NOT (\(predicate.sql))"
            parameters = predicate.parameters
        }
        let identityTypes = table.identity.map { table.columns[$0].type }
        try engine.query(
            "SELECT o.\(q("_top")), o.\(q("_origin")), o.\(q("_record")), o.\(q("_path")), \(sql.present(column, "o")), "
                + table.identityNames.map { "o.\(q($0))" }.joined(separator: ", ")
                + " FROM \(q(stage.stageName)) AS o WHERE \(condition)",
            parameters, types: [.int, .int, .int, .string, .bool] + identityTypes
        ) { row in
            guard case .int(let top) = row[0] else { return }
            let identity = zip(type.mapping.identity, row[5...]).map { "\($0)=\(ValueText.display($1))" }
                .joined(separator: ", ")
            let path: String? = if case .string(let text) = row[3] { text } else { nil }
            let origin = origins.origin(row[1], .int(-1))
            let index = if case .int(let number) = row[2] { Int(number) } else { 0 }
            let said = row[4] == .bool(true) || row[4] == .int(1) ? "null" : "missing"
            found(
                top,
                RecordError(
                    entity: type.name, identity: identity, attribute: mapping.name,
                    keyPath: path.map { "\($0).\(mapping.key)" } ?? mapping.key, origin: origin, index: index,
                    message: "required attribute is \(said) on a new object"))
        }
    }
}
