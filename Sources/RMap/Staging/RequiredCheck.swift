/// `required` on objects new to the store, checked on the staged occurrences in the engine
/// (docs/mapping.md, "Null, missing and defaults"): `required` applies to the object as the run
/// merges it from all its occurrences (a missing key keeps, the last value wins). When the
/// identity is not stored, the occurrence is no tombstone, and the merged object's required
/// attribute is null, the occurrence that carried that null is rejected; when no occurrence
/// carried the attribute and it has no default, every occurrence is. A rejected record is
/// rejected whole: every occurrence of its top-level record leaves the stage (members and nested
/// links with it), which changes what other objects merge from, so the check runs again until it
/// rejects nothing.
struct RequiredCheck {
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// What was rejected: the errors, and the rejected occurrences by entity index.
    struct Rejections {
        var errors: [RecordError] = []
        var counts: [Int: Int] = [:]
        /// The positions, in the mapping's errors, of the ``Candidate``s' errors that do not hold.
        var withdrawn: [Int] = []
    }

    /// A required value lacking in a record rejected for another reason, which therefore never
    /// reaches the stage: its error (at `error` in the mapping's errors) holds when the object is
    /// new to the store and the records that stand do not give it the value.
    struct Candidate: Sendable {
        let error: Int
        let type: Int
        /// The identity's values, in the order of the table's identity columns.
        let identity: [Value]
        let attribute: Int
    }

    /// Whether any entity of `schema` has a required attribute.
    static func isNeeded(in schema: GraphSchema) -> Bool {
        schema.types.contains { type in type.mapping.attributes.contains(where: \.required) }
    }

    /// Rejects the records whose new objects lack a required value, and withdraws the errors of
    /// the `candidates` that do not hold.
    func run(on engine: any SQLEngine, candidates: [Candidate] = []) throws -> Rejections {
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
            guard !tops.isEmpty else {
                rejections.withdrawn = try candidates.filter { try !holds($0, on: engine) }.map(\.error)
                return rejections
            }
            try StageRejection(layout: layout, dialect: dialect).reject(tops, counts: &rejections.counts, on: engine)
        }
    }

    /// The occurrences of exactly `type` whose new objects, merged from every occurrence staged
    /// (a missing key keeps, the last value wins), lack `attribute`.
    private func find(
        _ type: EntityType, _ attribute: Int, in stage: StageTable, origins: OriginNames, on engine: any SQLEngine,
        _ found: (Int64, RecordError) -> Void
    ) throws {
        let sql = StagedSQL(stage: stage, dialect: dialect)
        let mapping = type.mapping.attributes[attribute]
        let column = layout.store.bindings[type.index].attributeColumns[attribute]
        let table = stage.table
        let value = sql.column("o", at: column)
        let carrying = { (and: String) in self.carrying(column, in: stage, like: "o", and) }
        // The merged object takes the last value carried: a null there lacks it; so does carrying
        // none, without a default. The occurrence that carried the null is the one rejected; when
        // none carried it, every occurrence is.
        let nulled =
            "(\(sql.present(column, "o")) AND \(value) IS NULL AND NOT \(carrying(" AND e.\(q("_seq")) > o.\(q("_seq"))")))"
        let lacking = mapping.defaultValue == nil ? "(\(nulled) OR NOT \(carrying("")))" : nulled
        var condition =
            "o.\(q("_entity")) = \(type.index) AND \(lacking) AND NOT \(sql.exists(in: table.name, like: "o")) "
            + "AND NOT \(sql.exists(in: table.baseName, like: "o"))"
        var parameters: [Value] = []
        if let tombstone = type.mapping.deletion.tombstone {
            let predicate = PredicateSQL.condition(
                tombstone, of: type, alias: "o", binding: layout.store.bindings[type.index], table: table,
                dialect: dialect)
            condition += " AND NOT (\(predicate.sql))"
            parameters = predicate.parameters
        }
        let identityTypes = table.identity.map { table.columns[$0].type }
        try engine.query(
            "SELECT o.\(q("_top")), o.\(q("_origin")), o.\(q("_record")), o.\(q("_path")), \(sql.present(column, "o")), "
                + table.identityNames.map { "o.\(q($0))" }.joined(separator: ", ")
                + " FROM \(q(stage.stageName)) AS o WHERE \(condition) ORDER BY o.\(q("_seq"))",
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

    /// Whether an occurrence of the identity of `alias` carries the column at `column` (`and`:
    /// which of them, over the occurrence `e`).
    private func carrying(_ column: Int, in stage: StageTable, like alias: String, _ and: String = "") -> String {
        let sql = StagedSQL(stage: stage, dialect: dialect)
        return "EXISTS (SELECT 1 FROM \(q(stage.stageName)) AS e WHERE "
            + stage.keyColumns.map { "e.\(q($0.name)) = \(alias).\(q($0.name))" }.joined(separator: " AND ")
            + " AND \(sql.present(column, "e"))\(and))"
    }

    /// Whether a candidate's object is new to the store and lacks its value once the records that
    /// stand are merged (none of them carried a value last).
    private func holds(_ candidate: Candidate, on engine: any SQLEngine) throws -> Bool {
        let type = layout.schema.types[candidate.type]
        let binding = layout.store.bindings[type.index]
        let stage = layout.tables[binding.table]
        let sql = StagedSQL(stage: stage, dialect: dialect)
        let table = stage.table
        let column = binding.attributeColumns[candidate.attribute]
        let stored = { (name: String) in
            "EXISTS (SELECT 1 FROM \(self.q(name)) WHERE "
                + table.identityNames.map { "\(self.q($0)) = ?" }.joined(separator: " AND ") + ")"
        }
        let keys = zip(table.identity, candidate.identity).map { position, value in
            CanonicalKey.value(value, in: KeyDomain(table.columns[position].type)) ?? .null
        }
        let given =
            "EXISTS (SELECT 1 FROM \(q(stage.stageName)) AS o WHERE "
            + stage.keyColumns.map { "o.\(q($0.name)) = ?" }.joined(separator: " AND ")
            + " AND \(sql.present(column, "o")) AND \(sql.column("o", at: column)) IS NOT NULL AND NOT "
            + carrying(column, in: stage, like: "o", " AND e.\(q("_seq")) > o.\(q("_seq"))") + ")"
        let lacking = try engine.count(
            "SELECT count(*) WHERE NOT \(stored(table.name)) AND NOT \(stored(table.baseName)) AND NOT \(given)",
            candidate.identity + candidate.identity + keys)
        return lacking > 0
    }
}
