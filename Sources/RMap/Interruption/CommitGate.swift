import Foundation

/// The store commits of this process, passed one at a time through a gate that an
/// interruption closes: so that when rmap stops on `SIGINT` or `SIGTERM` it knows whether
/// anything was written, and says so truthfully.
///
/// Each engine commits inside ``commit(_:)`` (SQLite's `COMMIT`, PostgreSQL's, the JSON
/// store's replace). ``close(waiting:)`` waits for a commit under way to end, lets no other
/// begin, and tells how many completed: 0 means the store holds what it held before.
///
/// ```swift
/// try CommitGate.commit { try connection.execute("COMMIT") }
/// ```
public enum CommitGate {
    private static let gate = NSLock()
    private static let completed = Locked(0)

    /// Runs `body`, a store's commit, unless the gate is closed (then it waits for ever: the
    /// process is about to end). A commit that returns is counted.
    public static func commit<Result>(_ body: () throws -> Result) rethrows -> Result {
        gate.lock()
        defer { gate.unlock() }
        let result = try body()
        completed.withLock { $0 += 1 }
        return result
    }

    /// How many commits completed so far.
    public static var commits: Int { completed.withLock { $0 } }

    /// Closes the gate for good, waiting up to `timeout` for a commit under way; returns how
    /// many commits completed, or `nil` when one was still under way after `timeout` (then
    /// the store holds either state). Blocks the calling thread.
    public static func close(waiting timeout: Duration) -> Int? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard gate.lock(before: Date(timeIntervalSinceNow: seconds)) else { return nil }
        return commits
    }
}
