import Dispatch

/// Runs `work` on a thread of its own while `meanwhile` runs on the caller's,
/// and returns `work`'s result once both are done (rethrowing its error).
///
/// The two closures share state the compiler cannot check: the caller
/// promises that nothing one of them writes is read or written by the other
/// until both have returned (``PersistWriter`` writes entity rows, which read
/// values and settled links, while connecting writes other links).
func alongside<Result>(_ work: () throws -> Result, meanwhile: () -> Void) throws -> Result {
    try withoutActuallyEscaping(work) { work in
        let handoff = Handoff(work: work)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "rmap.alongside").async {
            handoff.run()
            done.signal()
        }
        meanwhile()
        done.wait()
        return try handoff.result!.get()
    }
}

/// A closure and its result, handed to another thread and read back after it signalled.
private final class Handoff<Result>: @unchecked Sendable {
    private var work: (() throws -> Result)?
    var result: Swift.Result<Result, any Error>?

    init(work: @escaping () throws -> Result) {
        self.work = work
    }

    /// Runs the work once and lets go of it, which must not outlive ``alongside(_:meanwhile:)``.
    func run() {
        result = Swift.Result { try work!() }
        work = nil
    }
}
