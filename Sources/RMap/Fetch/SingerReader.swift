/// Turns a Singer message stream, line by line, into payloads for the entities
/// its streams map to (``SingerStreams``), and keeps what the stream says about
/// the run: the last `STATE` and the streams a version was activated for.
///
/// Each `RECORD` becomes one payload whose origin names its line
/// (`tap-people line 12`), so a record error says where the record was. A
/// record of an entity whose identity is the `singerKey` gets its key from its
/// stream's `SCHEMA` `key_properties` (``SingerKey``).
///
/// `ACTIVATE_VERSION` (stream, v): records of that stream with a version lower
/// than v that come after it are stale and skipped; the stream's entity is
/// listed in ``activated``, for the run to treat as complete.
struct SingerReader {
    /// The tap's command or `stdin`.
    let origin: String
    private let streams: SingerStreams
    private var keyProperties: [String: [String]] = [:]
    private var versions: [String: Int] = [:]
    /// The last `STATE` message's value, once one arrived.
    private(set) var state: JSONValue?
    /// The entities whose stream had an `ACTIVATE_VERSION` in this run.
    private(set) var activated: Set<String> = []
    /// Records skipped as older than their stream's activated version.
    private(set) var staleRecords = 0

    /// A reader for the streams of `entities`.
    init(origin: String, entities: [EntityMapping], inflector: Inflector) {
        self.origin = origin
        streams = SingerStreams(entities: entities, inflector: inflector)
    }

    /// Reads one line; returns the payload its `RECORD` makes, if it is one.
    ///
    /// - Throws: ``SingerError`` naming the line: not a message, a stream no entity takes, or
    ///   a record whose entity needs `key_properties` that no `SCHEMA` gave.
    mutating func read(_ line: [UInt8], number: Int) throws(SingerError) -> Payload? {
        guard let message = try SingerMessage(line: line, number: number, origin: origin) else { return nil }
        switch message {
        case .schema(let stream, let keys, _):
            keyProperties[stream] = keys
        case .record(let stream, let record, let version):
            return try payload(stream: stream, record: record, version: version, line: number)
        case .state(let value):
            state = value
        case .activateVersion(let stream, let version):
            let entity = try entity(for: stream, line: number)
            versions[stream] = max(version, versions[stream] ?? version)
            activated.insert(entity.name)
        }
        return nil
    }

    private func entity(for stream: String, line: Int) throws(SingerError) -> EntityMapping {
        guard let entity = streams.entity(for: stream) else {
            throw SingerError(origin: origin, line: line, message: streams.unknown(stream))
        }
        return entity
    }

    private mutating func payload(
        stream: String, record: JSONValue, version: Int?, line: Int
    ) throws(SingerError) -> Payload? {
        let entity = try entity(for: stream, line: line)
        if let version, let active = versions[stream], version < active {
            staleRecords += 1
            return nil
        }
        var record = record
        if SingerKey.isIdentity(of: entity) {
            guard let keys = keyProperties[stream], !keys.isEmpty else {
                throw SingerError(
                    origin: origin, line: line,
                    message:
                        "entity '\(entity.name)' declares no identity and stream '\(stream)' has no SCHEMA "
                        + "with key_properties before this RECORD: declare 'identity:' on the entity")
            }
            record = SingerKey.stamp(record, keyProperties: keys)
        }
        return Payload(origin: "\(origin) line \(line)", entity: entity.name, body: .records([record]))
    }
}

extension SingerReader {
    /// The run-state scope of Singer `STATE`s: key `stdin` for `--singer`, the tap's command
    /// (its words joined by spaces) for the `singer` source.
    static let scope = "singer"

    /// Whether a source block reads a Singer stream: the `singer` source, or `stdin` with `format: singer`.
    static func isSinger(_ source: PluginConfig) -> Bool {
        source.plugin == "singer" || (source.plugin == "stdin" && source["format"]?.scalar?.text == "singer")
    }

    /// Tells the run what the stream said, once it has ended: its last `STATE`, written under `key`
    /// in the run's transaction, and, among `entities`, those whose stream sent no
    /// `ACTIVATE_VERSION`: their fetch was incremental, so `orphans: delete` leaves them alone.
    func finish(_ runState: SourceRunState, key: String, entities: [EntityMapping]) {
        if let state {
            var update = RunStateUpdate()
            update.set(scope: Self.scope, key: key, to: state)
            runState.record(update)
        }
        for entity in entities where !activated.contains(entity.name) { runState.markIncomplete(entity.name) }
    }

    /// Reads one line and delivers the payload its `RECORD` makes, if it is one.
    mutating func deliver(_ line: [UInt8], number: Int, to context: FetchContext) async throws {
        if let payload = try read(line, number: number) { try await context.deliver(payload) }
    }
}
