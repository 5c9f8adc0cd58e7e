/// A step that runs on the connected graph before it is persisted, e.g. to
/// derive values or check invariants. Registered stages run in registration order.
///
/// Implementers may change objects' values; a thrown error fails the run.
public protocol Stage: Sendable {
    /// The stage's name, shown in progress and `rmap plugins`.
    var name: String { get }
    /// Runs the stage on the graph.
    func run(on graph: ObjectGraph) throws
}
