/// A step that runs on the connected graph before it is persisted, e.g. to
/// derive values or check invariants: the stages a host registers
/// (``PluginRegistry/register(stage:module:)``) run in registration order, then
/// those the mapping files name under `stages:`, in the order written.
///
/// Implementers may change objects' values; a value they refuse is a
/// ``StageContext/reject(_:)`` (a record error in the run's report), and a
/// thrown error fails the run, writing nothing. A stage that does no waiting
/// may implement the requirement without `async`:
///
/// ```swift
/// struct Shout: Stage {
///     let name = "shout"
///     func run(on graph: ObjectGraph, context: StageContext) throws {
///         for person in try graph.objects(of: "CRMPerson") {
///             if let name: String = try person["firstName"] { try person.set("firstName", to: name.uppercased()) }
///         }
///     }
/// }
/// ```
public protocol Stage: Sendable {
    /// The stage's name, shown in progress and `rmap plugins`.
    var name: String { get }
    /// Runs the stage on the graph.
    func run(on graph: ObjectGraph, context: StageContext) async throws
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
