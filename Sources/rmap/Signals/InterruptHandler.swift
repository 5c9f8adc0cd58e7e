import Foundation
import RMap

/// What `rmap` does on `SIGINT` (Ctrl-C) or `SIGTERM`: it stops the programs it runs (their
/// process groups get the same signal, then `SIGKILL` if they linger, and are reaped), waits
/// for a store commit under way (``CommitGate``), deletes its private files
/// (``PrivateFolder``) and, when nothing was written, a store file the run made, says on
/// stderr what the store holds, and dies by the signal, so that
/// its exit status stays 130 or 143. A second signal meanwhile kills it at once.
///
/// The signal handler itself only writes the signal's number to a pipe; a thread of its own
/// reads it and does the rest.
enum InterruptHandler {
    /// What the command under way tells on an interrupt.
    enum Work: Sendable {
        /// A run, or a command that writes nothing: `interrupted: nothing was written`, unless a
        /// commit completed.
        case writing
        /// A push: the changes pushed so far are journalled.
        case pushing
    }

    /// The command's kind of work (``Work/writing`` until a command says otherwise).
    private static let work = Locked(Work.writing)

    /// What undoes the command's traces when an interrupt comes before anything was written
    /// (a store file the run created, still empty).
    private static let undo = Locked<@Sendable () -> Void>({})

    /// Where the process is: which of an interrupt and the end of the command came first.
    private enum Phase {
        case running, interrupted, exiting
    }

    private static let phase = Locked(Phase.running)

    /// Says what the command under way does, for the message an interrupt prints.
    static func doing(_ kind: Work) {
        work.withLock { $0 = kind }
    }

    /// Sets what an interrupt does when nothing was written, before it says so.
    static func whenNothingWritten(_ action: @escaping @Sendable () -> Void) {
        undo.withLock { $0 = action }
    }

    /// Installs the handlers for `SIGINT` and `SIGTERM` (once; later calls do nothing), and
    /// unblocks both in the calling thread (a parent may have started rmap with them blocked).
    static func install() {
        _ = installed
        unblock([SIGINT, SIGTERM])
    }

    private static func unblock(_ numbers: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static let installed: Void = {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        signalPipe = ends[1]
        let reader = ends[0]
        let thread = Thread {
            var number: Int32 = 0
            while read(reader, &number, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {}
            interrupted(by: number)
        }
        thread.name = "rmap-signals"
        thread.start()
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in
                var value = number
                _ = write(signalPipe, &value, MemoryLayout<Int32>.size)
            }
        }
    }()

    /// The message for an interrupt of `work` after `commits` completed commits (`nil`: one was
    /// still under way).
    static func message(_ work: Work, commits: Int?) -> String {
        switch (work, commits) {
        case (.pushing, _): "interrupted: the pushed changes so far are journalled; push again to send the rest"
        case (.writing, 0): "interrupted: nothing was written"
        case (.writing, nil): "interrupted while the store was committing: it holds all of the run or nothing of it"
        case (.writing, _): "interrupted once the store was written: it holds the run"
        }
    }

    /// Ends the process with `status`, unless an interrupt came first: its handling then ends
    /// the process by the signal (a command that failed because its programs were stopped must
    /// not exit with 1 meanwhile).
    static func exit(_ status: Int32) -> Never {
        let first = phase.withLock { phase in
            defer { if phase == .running { phase = .exiting } }
            return phase == .running
        }
        if first { Foundation.exit(status) }
        while true { pause() }
    }

    /// Stops everything, says what the store holds, and dies by `number`.
    private static func interrupted(by number: Int32) -> Never {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let first = phase.withLock { phase in
            defer { if phase == .running { phase = .interrupted } }
            return phase == .running
        }
        guard first else { while true { pause() } }  // the process is exiting already
        LivePrograms.stopAll(with: number)
        let commits = CommitGate.close(waiting: .seconds(10))
        PrivateFolder.remove()
        if commits == 0 { undo.withLock { $0 }() }
        let text = message(work.withLock { $0 }, commits: commits)
        TextOutput.standardError.write((TextOutput.standardError.isTerminal ? "\n" : "") + text + "\n")
        unblock([number])
        raise(number)
        Foundation.exit(128 + number)  // not reached: the signal's default action ends the process
    }
}

/// Where the signal handler writes the number of the signal it got (-1 until installed).
nonisolated(unsafe) private var signalPipe: Int32 = -1
