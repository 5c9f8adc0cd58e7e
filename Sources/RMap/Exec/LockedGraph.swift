import Foundation

/// A graph shared by the threads that feed an `exec` program and read its
/// answers: every access holds the lock, so reading one object while
/// changing another never races.
final class LockedGraph: Sendable {
    private let lock = NSLock()
    private let graph: Confined<ObjectGraph>

    init(_ graph: ObjectGraph) {
        self.graph = Confined(graph)
    }

    /// Runs `body` with the graph, holding the lock.
    func withGraph<T>(_ body: (ObjectGraph) throws -> T) rethrows -> T {
        try lock.withLock { try body(graph.value) }
    }
}
