import Foundation

/// The `exec` source: runs a program (`command: [argv...]`, from the mapping
/// file's folder) that writes JSON lines `{"entity": "CRMPerson", "record": {...}}`
/// on standard output, with `env: {NAME: value}` added to its environment.
/// A non-zero exit is a fetch error showing its stderr; with `timeout: SECONDS`, so is a
/// program that runs longer (it is stopped, with whatever it started).
///
/// The program is run directly, found as a shell finds it (``ProgramPath``):
/// no shell and no `/usr/bin/env` reads the words. Output is read as JSON
/// Lines files are: a leading byte order mark is dropped, and a line that is
/// not UTF-8 JSON stops the run with its line and column.
///
/// Plugins in any language can feed rmap this way.
public struct ExecSource: Source {
    /// The option keys the plugin reads.
    public static let options = ["command", "env", "timeout"]

    /// How many records go into one payload.
    static let batchSize = 1000

    private let command: ProgramCommand

    /// Creates the source from its `source:` block: `command:`, `env:` and `timeout:`.
    ///
    /// - Throws: ``PluginError`` when `command:` is missing or empty, or `timeout:` is not a
    ///   number of seconds greater than 0.
    public init(config: PluginConfig) throws {
        command = try ProgramCommand(config: config)
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        let origin = context.model.redact("exec \(command.words.joined(separator: " "))")
        var batches = ExecBatches(origin: origin, model: context.model)
        try await command.run(origin: origin, redact: context.model.redact) { line, number in
            if let payload = try batches.add(line: line, number: number) { try await context.deliver(payload) }
        }
        for payload in batches.flush() { try await context.deliver(payload) }
    }
}

/// Groups an exec plugin's JSON lines into payloads per entity.
struct ExecBatches {
    let origin: String
    let model: MappingModel
    private var pending: [String: [JSONValue]] = [:]

    init(origin: String, model: MappingModel) {
        self.origin = origin
        self.model = model
    }

    /// Adds a line; returns a full batch when one is ready.
    ///
    /// - Throws: ``JSONError`` when the line is not UTF-8 JSON (as a file's would be),
    ///   ``FetchError`` when it is not an entity's record.
    mutating func add(line: [UInt8], number: Int) throws -> Payload? {
        guard !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) else { return nil }
        let value: JSONValue
        do {
            value = try JSONReader.parse(line, origin: origin)
        } catch {
            throw JSONError(origin: origin, line: number, column: error.column, message: error.message)
        }
        guard let object = value.object, let entity = object["entity"]?.string, let record = object["record"] else {
            throw FetchError(
                origin: "\(origin) line \(number)",
                message: "expected {\"entity\": \"...\", \"record\": {...}}, found \(ValueText.display(value))")
        }
        guard model.entity(named: entity) != nil else {
            throw FetchError(origin: "\(origin) line \(number)", message: "unknown entity '\(entity)'")
        }
        pending[entity, default: []].append(record)
        guard let batch = pending[entity], batch.count >= ExecSource.batchSize else { return nil }
        pending[entity] = nil
        return Payload(origin: origin, entity: entity, body: .records(batch))
    }

    /// The partial batches left.
    mutating func flush() -> [Payload] {
        defer { pending = [:] }
        return pending.keys.sorted().map { Payload(origin: origin, entity: $0, body: .records(pending[$0] ?? [])) }
    }
}
