import Foundation

/// A value shared between threads, read and changed only while its lock is held.
///
/// The project's one lock type, used wherever `Synchronization.Mutex` would be. `Mutex` on
/// Linux waits on a futex the thread sanitizer cannot see, so every handoff through it is
/// reported as a data race (CI reported `CurlHandles` and `ExitStatus`); `NSLock` is a pthread
/// mutex, which the sanitizer understands, so races it reports are real.
///
/// `@unchecked Sendable` because the compiler cannot see that `value` is touched only inside
/// `withLock`: that is the whole of this type, and the justification for the unchecked
/// conformances the project no longer needs elsewhere.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock; what it changes is kept.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
