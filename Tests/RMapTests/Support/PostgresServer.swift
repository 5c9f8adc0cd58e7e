import Foundation

/// The PostgreSQL server the tests run against.
///
/// `RMAP_POSTGRES_URL` (and `RMAP_POSTGRES_PASSWORD_URL`, a URL whose role
/// must give a password) name a server the test command set up. Without
/// them, the first test that asks runs `scripts/postgres-server start`; the
/// server is stopped when the test process exits, unless it was already
/// running. When no server can be had, asking throws, so tests fail.
enum PostgresServer {
    /// Why no server is available.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private struct URLs: Sendable {
        var url: String
        var passwordURL: String?
    }

    /// A URL for the superuser `postgres` on the test database.
    static func url() throws -> String {
        try shared.get().url
    }

    /// A URL for a role that authenticates with a password (`rmap:s3cret`).
    static func passwordURL() throws -> String {
        guard let url = try shared.get().passwordURL else {
            throw Unavailable(description: "RMAP_POSTGRES_URL is set but RMAP_POSTGRES_PASSWORD_URL is not")
        }
        return url
    }

    private static let shared: Result<URLs, Unavailable> = Result { () throws(Unavailable) in try locate() }

    private static let script = URL(filePath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appending(path: "scripts/postgres-server")
        .path

    private static func locate() throws(Unavailable) -> URLs {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["RMAP_POSTGRES_URL"] {
            return URLs(url: url, passwordURL: environment["RMAP_POSTGRES_PASSWORD_URL"])
        }
        if let running = try? urls(printedBy: "status") {
            return running
        }
        let started = try urls(printedBy: "start")
        atexit { PostgresServer.stop() }
        return started
    }

    private static func urls(printedBy command: String) throws(Unavailable) -> URLs {
        let values = try run(command)
        guard let url = values["POSTGRES_URL"] else {
            throw Unavailable(description: "\(script) \(command) printed no POSTGRES_URL")
        }
        return URLs(url: url, passwordURL: values["POSTGRES_PASSWORD_URL"])
    }

    private static func stop() {
        _ = try? run("stop")
    }

    /// Runs the script and reads the `NAME=value` lines it prints.
    ///
    /// Uses `posix_spawn` and `waitpid` rather than `Process`: the first test
    /// runs this while others wait for it on the cooperative pool, and
    /// `Process` needs a free dispatch thread to notice the child exit.
    private static func run(_ command: String) throws(Unavailable) -> [String: String] {
        let output = FileManager.default.temporaryDirectory
            .appending(path: "rmap-postgres-server-\(getpid())-\(command).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pid = pid_t()
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(script), strdup(command), nil]
        defer { for argument in arguments { free(argument) } }
        let spawned = posix_spawn(&pid, script, &actions, nil, arguments, environ)
        guard spawned == 0 else {
            throw Unavailable(description: "cannot run \(script) \(command): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw Unavailable(description: "\(script) \(command) failed with wait status \(status)")
        }
        let lines = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n")
        var values: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 {
                values[String(parts[0])] = String(parts[1])
            }
        }
        return values
    }
}
