import Foundation

/// The `stdin` source: one JSON document on standard input (a leading UTF-8
/// byte order mark dropped, as in files), holding the records of the entity
/// named by `entity:` (or of the only entity that uses the source). With
/// `skip_unchanged: true`, a document whose bytes are those of the last run's is not
/// parsed (``RememberedPayloads``).
///
/// With `format: singer` it reads a Singer message stream instead (what a tap
/// writes), for every entity that uses the source, as the `singer` source reads
/// a tap's output (``SingerReader``): `tap-foo | rmap run crm.yml`.
public struct StdinSource: Source {
    /// The option keys the plugin reads.
    public static let options = ["entity", "format", "skip_unchanged"]

    private let entityName: String?
    private let format: String?
    private let mark: Mark
    private let skipsUnchanged: Bool
    private let input: @Sendable () -> [UInt8]

    /// Creates the source from its `source:` block; it reads the process's standard input.
    public init(config: PluginConfig) {
        self.init(config: config) { Array(FileHandle.standardInput.readDataToEndOfFile()) }
    }

    /// Creates the source reading `input` instead of standard input.
    init(config: PluginConfig, input: @escaping @Sendable () -> [UInt8]) {
        entityName = config["entity"]?.scalar?.text
        format = config["format"]?.scalar?.text
        mark = config.mark
        skipsUnchanged = config.skipsUnchanged
        self.input = input
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        switch format {
        case nil, "json": try await fetchDocument(entities, context: context)
        case "singer": try await fetchSinger(entities, context: context)
        case let other?:
            throw FetchError(origin: "\(mark)", message: "unknown stdin format '\(other)' (formats: json, singer)")
        }
    }

    /// Reads a Singer message stream line by line, never whole.
    private func fetchSinger(_ entities: [EntityMapping], context: FetchContext) async throws {
        var reader = SingerReader(origin: "stdin", entities: entities, inflector: context.model.inflector)
        try await LineReader.forEachLine(of: FileHandle.standardInput) { line, number in
            try await reader.deliver(line, number: number, to: context)
        }
        reader.finish(context.runState, key: "stdin", entities: entities)
    }

    private func fetchDocument(_ entities: [EntityMapping], context: FetchContext) async throws {
        let target: String
        if let entityName {
            target = entityName
        } else if entities.count == 1 {
            target = entities[0].name
        } else {
            throw FetchError(
                origin: "stdin",
                message:
                    "standard input feeds one entity, but \(entities.map(\.name).joined(separator: ", ")) use it: set 'entity:'"
            )
        }
        guard context.model.entity(named: target) != nil else {
            throw FetchError(origin: "stdin", message: "unknown entity '\(target)' in 'entity:'")
        }
        let bytes = await DedicatedThread.run(input).get()
        let payloads = skipsUnchanged ? context.payloads : nil
        let hash = payloads == nil ? 0 : bytes.withUnsafeBytes { PayloadHash.of($0) }
        if try await payloads?.skipsUnchanged(origin: "stdin", hash: hash) != true {
            let document = try JSONReader.parse(bytes.dropFirst(UTF8BOM.length(at: bytes)), origin: "stdin")
            let payload = Payload(origin: "stdin", entity: target, body: .document(document))
            if let payloads {
                try await payloads.deliver(payload, hash: hash)
            } else {
                try await context.deliver(payload)
            }
        }
        context.progress(.fetched(entity: target, origin: "stdin"))
    }
}
