import Foundation

/// The programs rmap runs (``ChildProgram``: `exec` and `singer` sources, `exec` stages and
/// transformers) that are running now, so that they can be stopped when rmap is.
///
/// Each program runs in a process group of its own (as Foundation's `Process` starts it),
/// so the `SIGINT` of a Ctrl-C, which reaches the terminal's foreground group, reaches rmap
/// alone: ``stopAll(with:grace:)`` forwards it to each program's whole group (the program
/// and whatever it started), waits for them to end and be reaped, and kills those that
/// do not end in time.
///
/// ```swift
/// LivePrograms.stopAll(with: SIGTERM)   // before rmap dies by the signal it got
/// ```
public enum LivePrograms {
    /// The running programs by process id, each with what tells when it has ended.
    private static let running = Locked<[pid_t: ExitStatus]>([:])

    /// How long a program stopped with a signal may take to end before it is killed.
    public static let defaultGrace: Duration = .seconds(2)

    /// Notes a program that started (a program that ended already, and was noted before it
    /// started, counts as ended: its status says so).
    static func add(_ pid: pid_t, exit: ExitStatus) {
        running.withLock { running in
            running = running.filter { !$0.value.isFinished }
            running[pid] = exit
        }
    }

    /// Notes that a program ended (and was reaped).
    static func remove(_ pid: pid_t) {
        _ = running.withLock { $0.removeValue(forKey: pid) }
    }

    /// The process ids of the programs that run now.
    public static var pids: [Int32] { running.withLock { $0.filter { !$0.value.isFinished }.map(\.key) } }

    /// Sends `signal` to every running program's process group, waits up to `grace` for the
    /// programs to end, then sends `SIGKILL` to the groups (what a program started and left
    /// behind, or a program still running) and waits for the programs too. Blocks the calling
    /// thread: call it off Swift's cooperative pool (a signal's own thread).
    public static func stopAll(with signal: Int32, grace: Duration = defaultGrace) {
        let groups = pids
        for pid in groups { stop(pid, with: signal) }
        _ = waitForAll(until: .now + grace)
        for pid in groups { stop(pid, with: SIGKILL) }
        _ = waitForAll(until: .now + grace)
    }

    /// Sends `signal` to the process group `pid` leads (the program and its own children),
    /// or to the process alone when it leads none.
    static func stop(_ pid: pid_t, with signal: Int32) {
        if kill(-pid, signal) != 0 { kill(pid, signal) }
    }

    /// Waits until no program runs (true) or the deadline passes (false).
    private static func waitForAll(until deadline: ContinuousClock.Instant) -> Bool {
        while !pids.isEmpty {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
