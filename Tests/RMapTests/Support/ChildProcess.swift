import Foundation

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

    /// Starts `executable` with `arguments`, its standard output and error
    /// appended to the file at `log`, standard input empty.
    init(_ executable: String, _ arguments: [String], log: String) throws(SpawnFailure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw SpawnFailure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    /// Sends `SIGKILL`: the program stops at once, mid-write or not.
    func killNow() {
        _ = kill(pid, SIGKILL)
    }

    /// Waits for the child to end; true when it was killed by a signal, false when it exited first.
    func waitKilled() -> Bool {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFSIGNALED: the low seven bits hold the signal, neither 0 (exited) nor 0x7f (stopped).
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f
    }
}
