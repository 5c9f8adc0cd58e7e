import Foundation
import Testing

@testable import RMap

/// Objects written into a store as a run that fetched them would, without a source: rows of the
/// server's state in the store's tables, rmap's own writes (not local edits), in one transaction
/// that makes the schema and its base capture first. Relationships are left unset.
enum ServerRows {
    /// Writes `objects` (entity, attribute values by attribute name) of `model` into `store`.
    static func write(
        _ objects: [(entity: String, values: [String: Value])], model: MappingModel, into store: any Store
    ) throws {
        let schema = GraphSchema(model: model)
        let layout = StoreLayout(schema: schema)
        try store.load(layout)
        let engine = try store.engine()
        try engine.transaction {
            try StoreSchema.ensure(layout, on: engine)
            for (entity, values) in objects {
                let table = layout.table(of: try #require(schema.type(named: entity)))
                let row = table.roles.map { role in
                    if case .attribute(let name) = role { values[name] ?? .null } else { Value.null }
                }
                try engine.insert(into: table.name, columns: table.columns, rows: [row])
            }
        }
    }
}
