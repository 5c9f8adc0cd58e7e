import Foundation
import RMap

/// `rmap status MAPPING...`: per entity, the stored objects, pending local changes, cursors and last sync.
struct StatusCommand: StoreReadingCommand {
    static let help = StoreReadingHelp(
        name: "status", abstract: "Show per entity the stored objects, pending local changes, cursors and last sync.",
        json: "Print the status as one JSON document.", success: "the status was printed")

    /// The mapping files, `--store` and `--json`.
    let options: StoreReadingOptions

    func show(_ sync: SyncStore, model: MappingModel, context: CommandContext) throws {
        let status = try sync.status()
        if options.json {
            let document = JSONValue.object(JSONObject([("entities", .array(status.map(\.json)))]))
            context.output.line(JSONWriter.serialize(document))
        } else {
            context.output.write(Self.table(status))
        }
    }

    /// One line per entity: rows, pending creations, updates and deletions, cursor, last sync.
    static func table(_ status: [EntityStatus]) -> String {
        let header = ["entity", "rows", "create", "update", "delete", "cursor", "last sync"]
        let rows = status.map { entity in
            [entity.entity, "\(entity.rows)"] + SyncChange.Kind.allCases.map { "\(entity.pending[$0] ?? 0)" }
                + [cursor(entity.cursors), entity.lastSync ?? "-"]
        }
        return TextTable.render([header] + rows, leftAligned: [0, 5, 6])
    }

    /// The entity's cursor, or for cursors kept per parent how many and the latest; `-` for none.
    static func cursor(_ cursors: [String: JSONValue]) -> String {
        let values = cursors.values.compactMap { value -> String? in
            switch value {
            case .string(let text), .number(let text): text
            default: nil
            }
        }
        guard let latest = values.max(by: { ($0.count, $0) < ($1.count, $1) }) else { return "-" }
        return cursors.count == 1 && cursors[""] != nil ? latest : "\(cursors.count) parents, latest \(latest)"
    }
}
