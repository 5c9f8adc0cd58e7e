/// A value that is not `Sendable`, handed between threads by code that orders every access
/// to it: the one place rmap tells the compiler "trust me", so the promise is kept in one type.
///
/// The holder promises that no two threads use ``value`` at the same time. rmap keeps the
/// promise in three ways only:
/// - one ``SerialWorker`` runs every access (the mapping task's mapper, a store's engine);
/// - every access holds one lock (what an `exec` stage's two pipe threads share, a file's
///   prefetched groups);
/// - the threads take turns, each hand-off ordered by a continuation resumed, a job waited
///   for or a thread started (``DedicatedThread``s, a pipe's ``LineReader``,
///   the plan a file's parsing thread prepares records with).
final class Confined<Value>: @unchecked Sendable {
    /// The value; see the type's promise.
    var value: Value

    /// Wraps `value`, which nothing outside this box may use afterwards.
    init(_ value: Value) {
        self.value = value
    }
}
