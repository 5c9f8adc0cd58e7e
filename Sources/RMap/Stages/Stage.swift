/// A step that runs on the run's connected objects before they are merged into the store,
/// e.g. to derive values or check invariants: the stages a host registers
/// (``PluginRegistry/register(stage:module:)``) run in registration order, then
/// those the mapping files name under `stages:`, in the order written.
///
/// The objects are the run's staged rows in the store's engine (``StagedObjects``), read a
/// batch at a time, so a stage needs no memory for the whole run. Implementers may change
/// objects' values (stored as if a payload had carried them); a value they refuse is a
/// ``StageContext/reject(_:)`` (a record error in the run's report), and a thrown error fails
/// the run, writing nothing.
///
/// ```swift
/// struct Shout: Stage {
///     let name = "shout"
///     func run(on objects: StagedObjects, context: StageContext) async throws {
///         try await objects.update("CRMPerson") { person, _ in
///             if let name: String = try person["firstName"] { try person.set("firstName", to: name.uppercased()) }
///         }
///     }
/// }
/// ```
public protocol Stage: Sendable {
    /// The stage's name, shown in progress and `rmap plugins`.
    var name: String { get }
    /// Runs the stage on the run's objects.
    func run(on objects: StagedObjects, context: StageContext) async throws
}

/// What a stage may use while it runs.
public struct StageContext: Sendable {
    /// The model.
    public let model: MappingModel
    /// Records a record error: the run's report lists it, and a `--strict` run fails.
    public let reject: @Sendable (RecordError) -> Void
    /// Reports progress.
    public let progress: @Sendable (ProgressEvent) -> Void

    /// Creates a context.
    public init(
        model: MappingModel, reject: @escaping @Sendable (RecordError) -> Void,
        progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in }
    ) {
        self.model = model
        self.reject = reject
        self.progress = progress
    }
}
