/// The dangling references of a ``SQLConnector`` step: the keys of each source that matched
/// nothing, found by an anti-join and reported with the record they came from.
extension SQLConnector {
    /// The dangling references of one step, one per source listing its keys that matched nothing.
    func dangling(_ connect: ForeignKeyConnect, on engine: any SQLEngine) throws -> [DanglingReference] {
        try dangling(connect.dangling(), step: connect.step, sourceStage: connect.sourceStage, on: engine)
    }

    /// The dangling references a query of a step finds (``ForeignKeyConnect/dangling()``): rows of
    /// the source's last occurrence, identity and the values that matched nothing.
    func dangling(
        _ query: (sql: String, parameters: [Value], values: [AttributeType]), step: ConnectionStep,
        sourceStage: StageTable, on engine: any SQLEngine
    ) throws -> [DanglingReference] {
        let (sql, parameters, valueTypes) = query
        let table = sourceStage.table
        let identityTypes = table.identity.map { table.columns[$0].type }
        var found: [DanglingReference] = []
        var lastSeq: Value?
        try engine.query(sql, parameters, types: [.int, .int, .int] + identityTypes + valueTypes) { row in
            let identityEnd = 3 + identityTypes.count
            let values = Array(row[identityEnd...])
            let value = values.count == 1 ? values[0] : .array(values)
            if row[0] == lastSeq, !found.isEmpty {
                found[found.count - 1].values.append(value)
                return
            }
            lastSeq = row[0]
            found.append(
                DanglingReference(
                    entity: step.source.name, identity: IdentityKey(Array(row[3..<identityEnd])),
                    relationship: step.relationship.name, destination: step.destination.name,
                    attributes: step.keyAttributes, values: [value], origin: origins.origin(row[1], row[2])))
        }
        return found
    }
}
