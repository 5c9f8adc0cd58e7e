import CSpawn
import Foundation

/// Starts a program as rmap's children start: with `posix_spawn`, in `directory`, in a
/// process group of its own (so that a Ctrl-C reaches rmap, which stops it), with no signal
/// blocked and every signal at its default action (a thread of rmap's blocks most signals,
/// and rmap ignores `SIGPIPE`: neither must reach the program), and with no descriptor of
/// rmap's but the three it is given.
enum ProgramSpawn {
    /// Why a program could not start: the system's words.
    struct Failure: Error {
        var reason: String
    }

    /// Starts `program` (an executable's path) with `arguments` and exactly `environment`, its
    /// standard streams on `streams` (descriptors for 0, 1 and 2; `nil` for input: `/dev/null`).
    ///
    /// - Returns: the program's process id; it leads its own process group.
    static func start(
        _ program: String, arguments: [String], environment: [String: String], directory: String,
        streams: (input: Int32?, output: Int32, errors: Int32)
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input = streams.input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, streams.output, 1)
        posix_spawn_file_actions_adddup2(&actions, streams.errors, 2)
        posix_spawn_file_actions_addchdir_np(&actions, directory)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in envp { free(variable) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(reason: String(cString: strerror(result))) }
        return pid
    }

    /// Waits (blocking the calling thread) for `pid` to end and reaps it: its exit status, or
    /// the number of the signal that ended it.
    static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFSIGNALED: the low seven bits hold the signal; else the status is in the next byte.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}
