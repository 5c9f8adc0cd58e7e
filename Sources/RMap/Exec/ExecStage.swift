/// The `exec` stage (`stages: [{ plugin: exec, command: [python3, enrich.py] }]`):
/// runs a program after connect, writes every object to its standard input as
/// a JSON line and applies the changes it prints back, in the same shape:
///
/// ```
/// {"entity": "CRMPerson", "identity": [1], "values": {"firstName": "Ann", "email": "ann@example.com"}}
/// ```
///
/// `values` holds the attributes a payload carried, by name (`null` for a
/// cleared one); an answer changes only the attributes it lists, and may
/// leave objects out. Input and output stream at the same time (a program may
/// answer each line as it reads it, or at the end), so memory stays bounded.
///
/// - An answer's value goes through the attribute's type rules as a payload
///   value does; one that does not fit is a record error (naming the program
///   and the output line) and none of that line's changes are applied.
/// - A line that is not JSON of that shape, an unknown entity, identity or
///   attribute, a changed identity, or a non-zero exit fails the run: nothing
///   is written.
public struct ExecStage: Stage {
    /// The option keys the plugin reads.
    public static let options = ["command", "env", "timeout"]

    /// How many objects are written to the program at a time (between two takes of the graph's lock).
    static let batchSize = 256

    /// The program.
    public let command: ExecCommand

    /// Creates the stage from its `stages:` item.
    ///
    /// - Throws: ``PluginError`` when `command:` is missing or empty.
    public init(config: PluginConfig) throws(PluginError) {
        command = try ExecCommand(config: config, what: "stage")
    }

    /// `exec python3 enrich.py`.
    public var name: String { command.display }

    public func run(on objects: StagedObjects, context: StageContext) async throws {
        let origin = context.model.redact(command.display)
        let codec = ExecStageCodec(origin: origin)
        let model = context.model
        try await ExecProcess(command, origin: origin).exchange(
            origin: origin, redact: context.model.redact,
            feed: { process in
                for root in objects.layout.schema.roots {
                    var last: Int64 = 0
                    while true {
                        let (batch, next) = try objects.channel.sync { merge in
                            try StagedReader(engine: merge.engine, layout: objects.layout, links: objects.links)
                                .batch(of: root, after: last, limit: Self.batchSize)
                        }
                        guard !batch.isEmpty else { break }
                        last = next
                        let bytes = batch.reduce(into: [UInt8]()) { codec.write($1, model: model, into: &$0) }
                        guard process.send(bytes) else { return }
                    }
                }
            },
            answer: { lines in
                var number = 0
                while let line = lines.next() {
                    number += 1
                    guard let answer = try codec.read(line, number: number) else { continue }
                    let error = try objects.channel.sync { merge in
                        try codec.apply(
                            answer,
                            reader: StagedReader(engine: merge.engine, layout: objects.layout, links: objects.links))
                    }
                    if let error { context.reject(error) }
                }
            })
    }
}
