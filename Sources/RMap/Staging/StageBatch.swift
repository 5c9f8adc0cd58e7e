/// Rows for the run's staging tables, as the mapper makes them, until they are sent to the
/// engine together.
struct StageBatch: Sendable {
    /// By stage table position (``StageLayout/tables``): occurrence rows.
    var rows: [[[Value]]]
    /// By member table position (``StageLayout/members``): member rows.
    var members: [[[Value]]]
    /// By nested link table (``StageLayout/nestedLinks``): link rows.
    var links: [[[Value]]]
    /// Payload numbers and names first met in this batch.
    var origins: [[Value]] = []
    /// How many rows the batch holds, all tables together.
    private(set) var count = 0

    /// An empty batch for a layout.
    init(layout: StageLayout) {
        rows = Array(repeating: [], count: layout.tables.count)
        members = Array(repeating: [], count: layout.members.count)
        links = Array(repeating: [], count: layout.nestedLinks.count)
    }

    /// True when nothing was added.
    var isEmpty: Bool { count == 0 && origins.isEmpty }

    mutating func add(row: [Value], table: Int) {
        rows[table].append(row)
        count += 1
    }

    mutating func add(member: [Value], table: Int) {
        members[table].append(member)
        count += 1
    }

    mutating func add(link: [Value], table: Int) {
        links[table].append(link)
        count += 1
    }

    /// Sends every row to the engine's staging tables; the occurrences of a table with an upsert
    /// (by position) are merged into its rows by it instead (``RowCollapse/stagingUpsert``).
    func write(to engine: any SQLEngine, layout: StageLayout, upserts: [Int: StagingUpsert]) throws {
        if !origins.isEmpty {
            try engine.insert(into: StageSchema.originsName, columns: StageSchema.originColumns, rows: origins)
        }
        for (position, rows) in rows.enumerated() where !rows.isEmpty {
            let table = layout.tables[position]
            if let upsert = upserts[position] {
                try engine.execute(rows: rows, width: upsert.width, statement: upsert.sql)
            } else {
                try engine.insert(into: table.stageName, columns: table.stageColumns, rows: rows)
            }
        }
        for (position, rows) in members.enumerated() where !rows.isEmpty {
            let table = layout.members[position]
            try engine.insert(into: table.name, columns: table.columns, rows: rows)
        }
        for (position, rows) in links.enumerated() where !rows.isEmpty {
            let table = layout.nestedLinks[position]
            try engine.insert(into: table.name, columns: table.columns, rows: rows)
        }
    }
}
