/// A fetch plugin: finds payloads for entities and hands them to the pipeline.
///
/// Implementers must deliver every payload through ``FetchContext/deliver``
/// (which maps it at once) and throw on any failure: a thrown error fails the
/// run, and nothing is written. Sources may deliver concurrently.
///
/// ```swift
/// struct Constant: Source {
///     func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
///         for entity in entities {
///             try await context.deliver(Payload(origin: "constant", entity: entity.name, body: .records([])))
///         }
///     }
/// }
/// ```
public protocol Source: Sendable {
    /// Fetches the payloads of `entities` (all configured with this source).
    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws
}

/// What a source may use while fetching.
public struct FetchContext: Sendable {
    /// The model.
    public let model: MappingModel
    /// Maps a payload into the graph.
    public let deliver: @Sendable (Payload) async throws -> Void
    /// The identities of an entity's objects mapped so far (the parents of a nested fetch).
    public let identities: @Sendable (String) async -> [IdentityKey]
    /// Reports progress.
    public let progress: @Sendable (ProgressEvent) -> Void
    /// The run state stored before the run and written with it; entities fetched incompletely.
    public let ledger: RunLedger

    /// Creates a context.
    public init(
        model: MappingModel, deliver: @escaping @Sendable (Payload) async throws -> Void,
        identities: @escaping @Sendable (String) async -> [IdentityKey],
        progress: @escaping @Sendable (ProgressEvent) -> Void, ledger: RunLedger = RunLedger()
    ) {
        self.model = model
        self.deliver = deliver
        self.identities = identities
        self.progress = progress
        self.ledger = ledger
    }
}

/// A failure to fetch, naming what was being fetched.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    /// The file, URL or command that failed (secrets redacted).
    public var origin: String
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(origin: String, message: String) {
        self.origin = origin
        self.message = message
    }

    /// `origin: message`.
    public var description: String { "\(origin): \(message)" }
}
