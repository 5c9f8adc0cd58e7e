import Foundation

/// Runs blocking work (reading or writing a pipe) on a thread of its own, so
/// that no thread of Swift's cooperative pool waits on another process.
package enum DedicatedThread {
    /// The result of `body`, run on a new thread.
    package static func run<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> T
    ) async -> Result<T, Failure> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result(catching: body)) }.start()
        }
    }
}
