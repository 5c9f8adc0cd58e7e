/// Rejected records leave the stage whole: every occurrence of their top-level record, with its
/// members and nested links, counted by entity (a record stands or falls with its nested records).
struct StageRejection {
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// Removes every staged row of the rejected top-level records, counting occurrences by entity.
    func reject(_ tops: Set<Int64>, counts: inout [Int: Int], on engine: any SQLEngine) throws {
        let list = tops.sorted().map(String.init).joined(separator: ", ")
        for stage in layout.tables {
            let rejected = "\(q("_top")) IN (\(list))"
            try engine.query(
                "SELECT \(q("_entity")), count(*) FROM \(q(stage.stageName)) WHERE \(rejected) GROUP BY 1", [],
                types: [.int, .int]
            ) { row in
                if case .int(let entity) = row[0], case .int(let count) = row[1] {
                    counts[Int(entity), default: 0] += Int(count)
                }
            }
            let occurrences = "SELECT \(q("_seq")) FROM \(q(stage.stageName)) WHERE \(rejected)"
            for members in layout.members where members.table == stage.position {
                try engine.execute("DELETE FROM \(q(members.name)) WHERE \(q("_seq")) IN (\(occurrences))")
            }
            for links in layout.nestedLinks {
                try engine.execute("DELETE FROM \(q(links.name)) WHERE \(q("_seq")) IN (\(occurrences))")
            }
            try engine.execute("DELETE FROM \(q(stage.stageName)) WHERE \(rejected)")
        }
    }
}
