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
    /// The running programs by process id, each with what tells when it has ended, and whether
    /// rmap is being stopped (then no program may start).
    private static let state = Locked<(running: [pid_t: ExitStatus], stopping: Bool)>(([:], false))

    /// How long a program stopped with a signal may take to end before it is killed.
    public static let defaultGrace: Duration = .seconds(2)

    /// Starts a program with `spawn` (which returns its process id) and notes it, both under
    /// the lock ``stopAll(with:grace:)`` takes, so that no program starts unseen while rmap is
    /// being stopped: one that starts once it is stopping is killed at once.
    static func start<Failure: Error>(
        exit: ExitStatus, _ spawn: () throws(Failure) -> pid_t
    ) throws(Failure) -> pid_t {
        try state.withLock { state throws(Failure) -> pid_t in
            let pid = try spawn()
            state.running = state.running.filter { !$0.value.isFinished }
            state.running[pid] = exit
            if state.stopping { stop(pid, with: SIGKILL) }
            return pid
        }
    }

    /// Notes that a program ended (and was reaped).
    static func remove(_ pid: pid_t) {
        _ = state.withLock { $0.running.removeValue(forKey: pid) }
    }

    /// The process ids of the programs that run now.
    public static var pids: [Int32] {
        state.withLock { $0.running.filter { !$0.value.isFinished }.map(\.key) }
    }

    /// Sends `signal` to every running program's process group, waits up to `grace` for the
    /// programs to end, then sends `SIGKILL` to the groups (what a program started and left
    /// behind, or a program still running) and waits for the programs too; a program that
    /// starts meanwhile is killed as it starts. Blocks the calling thread: call it off Swift's
    /// cooperative pool (a signal's own thread).
    public static func stopAll(with signal: Int32, grace: Duration = defaultGrace) {
        let groups = state.withLock { state in
            state.stopping = true
            return state.running.filter { !$0.value.isFinished }.map(\.key)
        }
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
