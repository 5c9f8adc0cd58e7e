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
    /// The stored cursors of incremental entities: what to send as their `incremental.param`.
    public let cursors: IncrementalCursors
    /// Run state the source keeps in the store (e.g. HTTP validators), written with the run's data.
    public let runState: SourceRunState
    /// Maps a payload as ``deliver`` does and returns the identities of its records' objects,
    /// for a source that remembers what a payload held (to count it seen when it is not sent again).
    public let deliverIdentified: @Sendable (Payload) async throws -> [IdentityKey]
    /// Maps files unless their bytes are unchanged since the last run (``RememberedPayloads``);
    /// `nil` when the run may skip nothing.
    public let payloads: RememberedPayloads?
    /// Counts the requests the source skipped, for the run's report.
    public let skipped: SkippedRequests

    /// Creates a context.
    public init(
        model: MappingModel, deliver: @escaping @Sendable (Payload) async throws -> Void,
        identities: @escaping @Sendable (String) async -> [IdentityKey],
        progress: @escaping @Sendable (ProgressEvent) -> Void,
        cursors: IncrementalCursors = IncrementalCursors(), runState: SourceRunState = SourceRunState(),
        deliverIdentified: (@Sendable (Payload) async throws -> [IdentityKey])? = nil,
        payloads: RememberedPayloads? = nil, skipped: SkippedRequests = SkippedRequests()
    ) {
        self.payloads = payloads
        self.skipped = skipped
        self.model = model
        self.deliver = deliver
        self.identities = identities
        self.progress = progress
        self.cursors = cursors
        self.runState = runState
        self.deliverIdentified =
            deliverIdentified ?? { payload in
                try await deliver(payload)
                return []
            }
    }
}
