/// A child process's exit status, awaited through `terminationHandler`
/// (`Process.waitUntilExit()` can miss the exit when called off the main thread on Linux).
final class ExitStatus: Sendable {
    private let state = Locked<(status: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    /// Records the status and wakes the waiter.
    func finish(_ status: Int32) {
        let waiter = state.withLock { state in
            defer { state = (status, nil) }
            return state.waiter
        }
        waiter?.resume(returning: status)
    }

    /// True once the process has exited.
    var isFinished: Bool { state.withLock { $0.status != nil } }

    /// The status, once the process has exited.
    var value: Int32 {
        get async {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state in
                    if state.status == nil { state.waiter = continuation }
                    return state.status
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }
}
