import Foundation

@testable import RMap

/// A program started with `posix_spawn`, which a test can `SIGKILL` and reap
/// with `waitpid`: Foundation's `Process` needs a free dispatch thread to
/// notice a child's exit, which tests on the cooperative pool cannot promise.
/// ``waitKilled()`` blocks the calling thread: call it off the cooperative pool.
struct ChildProcess {
    /// Why a program could not be started.
    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The child's process id.
    let pid: pid_t

    /// How a child ended, and what it cost.
    struct Termination {
        /// The exit status, when it exited.
        var status: Int32?
        /// The signal that ended it, when one did.
        var signal: Int32?
        /// The processor time it used, user and system, in seconds.
        var cpuSeconds: Double
    }

    /// Starts `executable` with `arguments`, its standard output and error
    /// appended to the file at `log`, standard input empty, with `environment`
    /// added to this process's own.
    init(
        _ executable: String, _ arguments: [String], log: String, environment: [String: String] = [:]
    ) throws(SpawnFailure) {
        let output = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw SpawnFailure(description: "cannot open \(log): \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        // As rmap starts its own programs (and a shell would): no signal blocked, INT and TERM at their default.
        do {
            pid = try ProgramSpawn.start(
                executable, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.merging(environment) { _, own in own },
                directory: FileManager.default.currentDirectoryPath, streams: (nil, output, output))
        } catch {
            throw SpawnFailure(description: "cannot run \(executable): \(error.reason)")
        }
    }

    /// Sends `SIGKILL`: the program stops at once, mid-write or not.
    func killNow() {
        _ = kill(pid, SIGKILL)
    }

    /// Sends `signal` (`SIGINT`, `SIGTERM`, ...) to the child alone, as `kill` does.
    func send(_ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// Waits for the child to end; true when it was killed by a signal, false when it exited first.
    func waitKilled() -> Bool {
        wait().signal != nil
    }

    /// Waits for the child to end (blocking the thread) and says how.
    func wait() -> Termination {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        // WIFSIGNALED: the low seven bits hold the signal, neither 0 (exited) nor 0x7f (stopped).
        let signal = status & 0x7f
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Termination(
            status: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal != 0 && signal != 0x7f ? signal : nil,
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
