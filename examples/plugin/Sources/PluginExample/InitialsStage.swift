import RMap

/// A stage plugin: `stages: [{ plugin: initials, entity: Person, from: name, to: initials }]`
/// sets each object's `to` attribute to the initials of its `from` attribute
/// (`Ada Lovelace` -> `AL`) after connect.
public struct InitialsStage: Stage {
    /// The option keys the plugin reads.
    public static let options = ["entity", "from", "to"]

    private let entity: String
    private let from: String
    private let to: String

    /// Creates the stage from its `stages:` item.
    public init(config: PluginConfig) throws {
        func option(_ key: String) throws -> String {
            guard let value = config[key]?.scalar?.text else {
                throw PluginError.invalidOptions("the initials stage needs '\(key):'", at: config.mark)
            }
            return value
        }
        entity = try option("entity")
        from = try option("from")
        to = try option("to")
    }

    public var name: String { "initials of \(entity).\(from)" }

    public func run(on objects: StagedObjects, context: StageContext) async throws {
        let (from, to) = (from, to)
        try await objects.update(entity) { object, _ in
            guard let text: String = try object[from] else { return }
            let initials = text.split(separator: " ").compactMap(\.first).map { String($0).uppercased() }
            try object.set(to, to: initials.joined())
        }
    }
}
