import Foundation
import RMap

/// A source plugin: `source: { plugin: csv, path: data/{collection}.csv }` reads one CSV
/// file per entity, whose first line names the keys of the records on the lines below.
/// Fields are split at commas (no quoting); every value is text, which the
/// attribute's type then reads (`"42"` as an `int`).
public struct CSVSource: Source {
    /// The option keys the plugin reads.
    public static let options = ["path"]

    private let config: PluginConfig

    /// Creates the source from its `source:` block.
    public init(config: PluginConfig) {
        self.config = config
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        for entity in entities {
            let template = config["path"]?.scalar?.text ?? "{collection}.csv"
            let path = config.resolvePath(template.replacingOccurrences(of: "{collection}", with: entity.collection))
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw FetchError(origin: path, message: "cannot read the file")
            }
            let lines = text.split(whereSeparator: \.isNewline).map {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            guard let header = lines.first else { continue }
            let records = lines.dropFirst().map { fields in
                JSONValue.object(JSONObject(zip(header, fields).map { (String($0), JSONValue.string(String($1))) }))
            }
            try await context.deliver(Payload(origin: path, entity: entity.name, body: .records(records)))
        }
    }
}
