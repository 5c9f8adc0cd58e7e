/// Settles who holds each one-to-one connected by foreign key (``OneToOneHolder``) that the run
/// claims, set by set in the run's transaction once its rows are merged (docs/mapping.md,
/// "Inverses"): the last source staged with the key (in record order, the merged rows' `_seq`)
/// holds a destination the store has; every other source whose attribute names that destination,
/// stored or staged, lets go. A staged source whose key is null or names no destination claims
/// nothing and holds nothing of anyone's; the sources the run did not stage and whose destination
/// it did not claim keep what they held.
///
/// ```swift
/// try OneToOneClaims(layout: layout, dialect: engine.dialect).settle(on: engine)
/// ```
///
/// A model without such a one-to-one runs no statement.
struct OneToOneClaims {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// The one-to-ones, each with the position of its source's table.
    let holders: [(holder: OneToOneHolder, table: Int)]

    init(layout: StageLayout, dialect: any SQLDialect.Type) {
        self.layout = layout
        self.dialect = dialect
        holders = layout.families.enumerated().flatMap { position, family in
            OneToOneHolder.all(of: family, in: layout.schema).map { ($0, position) }
        }
    }

    /// Writes the holder columns of the run's claims.
    func settle(on engine: any SQLEngine) throws {
        for (holder, position) in holders {
            let claims = Claims(holder: holder, stage: layout.tables[position], store: layout.store, dialect: dialect)
            try engine.execute(claims.holdingSQL)
            try engine.execute(claims.claimingNothingSQL)
        }
    }
}

/// The statements of one one-to-one's claims: its source's table is `t`, the run's merged rows
/// of that table `r`.
private struct Claims {
    let keys: OneToOneKeys
    let sql: StagedSQL

    init(holder: OneToOneHolder, stage: StageTable, store: StoreLayout, dialect: any SQLDialect.Type) {
        keys = OneToOneKeys(holder, store: store, dialect: dialect)
        sql = StagedSQL(stage: stage, dialect: dialect)
    }

    private func q(_ name: String) -> String { sql.q(name) }

    /// True when the merged row `r` carried the key (one of its attributes).
    private var carried: String {
        "(" + keys.columns.map { sql.present($0.sourcePosition, "r") }.joined(separator: " OR ") + ")"
    }

    /// The run's last claimer of each destination holds it; every other source with its key lets go.
    var holdingSQL: String {
        let table = q(sql.table.name)
        let handle = q(sql.dialect.rowHandle)
        let source = keys.sourceKeys("t")
        let named = source.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let claims =
            "SELECT t.\(handle) AS h, " + source.enumerated().map { "\($1) AS \(q("k\($0)"))" }.joined(separator: ", ")
            + ", ROW_NUMBER() OVER (PARTITION BY \(source.joined(separator: ", ")) ORDER BY r.\(q("_seq")) DESC) AS n "
            + "FROM \(table) AS t JOIN \(q(sql.stage.rowsName)) AS r ON \(sql.sameIdentity("t", "r")) "
            + "WHERE \(carried) AND \(named) AND \(keys.namesDestination("t"))"
        let sameKey = source.enumerated().map { "\($1) = w.\(q("k\($0)"))" }.joined(separator: " AND ")
        let holds = "CASE WHEN t.\(handle) = w.h THEN 1 ELSE 0 END"
        // Only the rows whose hold changes are written (null holds).
        return "WITH w AS (SELECT * FROM (\(claims)) AS c WHERE c.n = 1) "
            + "UPDATE \(table) AS t SET \(q(keys.holder.name)) = \(holds) "
            + "FROM w WHERE \(sameKey) AND \(holds) <> COALESCE(t.\(q(keys.holder.name)), 1)"
    }

    /// A staged source whose key is null or names no destination holds nothing of anyone's, and
    /// takes back the flag of a holder (null) for the day its key names one.
    var claimingNothingSQL: String {
        "UPDATE \(q(sql.table.name)) AS t SET \(q(keys.holder.name)) = NULL FROM \(q(sql.stage.rowsName)) AS r "
            + "WHERE \(sql.sameIdentity("t", "r")) AND t.\(q(keys.holder.name)) IS NOT NULL AND \(carried) "
            + "AND \(keys.claimsNothing("t"))"
    }
}
