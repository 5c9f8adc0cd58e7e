import Foundation

/// The URLs of the real test servers: the Rails fixture app and the
/// fault-injection server.
///
/// The test command passes them in `RMAP_RAILS_URL` / `RMAP_FAULT_URL`;
/// otherwise the first test that needs a server runs the project's script
/// (`scripts/rails-server start`, `scripts/fault-server start`, which reuse a
/// running server) once per process and leaves the server running for the
/// next run (`scripts/... stop` ends it). A server that cannot start makes
/// every test that needs it fail.
enum TestServers {
    /// A server that could not be started, with the script's output.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The Rails fixture app's URL, e.g. `http://127.0.0.1:41297`.
    static func rails() throws -> URL { try railsURL.get() }

    /// The fault server's URL.
    static func fault() throws -> URL { try faultURL.get() }

    private static let railsURL = locate(variable: "RMAP_RAILS_URL", script: "rails-server", key: "RAILS_URL")
    private static let faultURL = locate(variable: "RMAP_FAULT_URL", script: "fault-server", key: "FAULT_URL")

    /// The repository's root, from this file's path (Tests/RMapTests/Support/TestServers.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func locate(variable: String, script: String, key: String) -> Result<URL, StartFailure> {
        if let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty {
            guard let url = URL(string: text) else {
                return .failure(StartFailure(description: "\(variable) is not a URL: \(text)"))
            }
            return .success(url)
        }
        return Result { () throws(StartFailure) in try start(script, key: key) }
    }

    /// Runs `scripts/<script> start` and reads the `KEY=URL` line it prints.
    ///
    /// The script's end is seen as the end of its output, not by waiting for
    /// the process: Foundation's `Process` on Linux can miss a child's exit
    /// when waited for off the main thread, and block for good.
    private static func start(_ script: String, key: String) throws(StartFailure) -> URL {
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent("scripts/\(script)")
        process.arguments = ["start"]
        process.currentDirectoryURL = repositoryRoot
        // stderr goes to a file: a pipe read only later could fill up (apt-get output) and block the script.
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-\(script)-\(UUID()).log")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            let errors = try FileHandle(forWritingTo: errorsFile)
            defer { try? errors.close() }
            process.standardError = errors
            try process.run()
        } catch {
            throw StartFailure(description: "cannot run scripts/\(script): \(error)")
        }
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let line = stdout.split(separator: "\n").last(where: { $0.hasPrefix("\(key)=") }),
            let url = URL(string: String(line.dropFirst(key.count + 1)))
        else {
            let stderr = String(
                decoding: FileManager.default.contents(atPath: errorsFile.path) ?? Data(), as: UTF8.self)
            throw StartFailure(description: "scripts/\(script) start printed no \(key)=...: \(stdout)\(stderr)")
        }
        return url
    }
}
