import Foundation
import Synchronization

/// The URLs of the real test servers: the Rails fixture app and the
/// fault-injection server.
///
/// The test command passes them in `RMAP_RAILS_URL` / `RMAP_FAULT_URL`;
/// otherwise the first test that needs a server starts it with the project's
/// script (`scripts/rails-server start`, `scripts/fault-server start`), once
/// per process, and a server started this way is stopped when the process
/// exits. A server that cannot start makes every test that needs it fail.
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

    private static func locate(variable: String, script: String, key: String) -> Result<URL, StartFailure> {
        if let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty {
            guard let url = URL(string: text) else {
                return .failure(StartFailure(description: "\(variable) is not a URL: \(text)"))
            }
            return .success(url)
        }
        let alreadyRunning = (try? run(script, "status")) != nil
        do {
            let output = try run(script, "start")
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("\(key)=") }),
                let url = URL(string: String(line.dropFirst(key.count + 1)))
            else {
                return .failure(StartFailure(description: "scripts/\(script) start printed no \(key)=: \(output)"))
            }
            if !alreadyRunning { stopAtExit(script) }
            return .success(url)
        } catch {
            return .failure(error)
        }
    }

    /// Runs `scripts/<script> <command>`; returns its stdout, or throws with its stderr when it fails.
    @discardableResult
    private static func run(_ script: String, _ command: String) throws(StartFailure) -> String {
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent("scripts/\(script)")
        process.arguments = [command]
        process.currentDirectoryURL = repositoryRoot
        // stderr goes to a file: a pipe nobody reads yet could fill up (apt-get output) and block the script.
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-\(script)-\(UUID()).log")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        // Not waitUntilExit: off the main thread it can miss the exit and hang for good
        // (swift-corelibs-foundation); a handler set before run() cannot miss it.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            let errors = try FileHandle(forWritingTo: errorsFile)
            defer { try? errors.close() }
            process.standardError = errors
            try process.run()
        } catch {
            throw StartFailure(description: "cannot run scripts/\(script): \(error)")
        }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        let stderr = FileManager.default.contents(atPath: errorsFile.path) ?? Data()
        guard process.terminationStatus == 0 else {
            throw StartFailure(
                description: "scripts/\(script) \(command) exited with \(process.terminationStatus): \(String(decoding: stderr, as: UTF8.self))")
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    /// The scripts whose servers this process started.
    private static let started = Mutex<[String]>([])

    private static func stopAtExit(_ script: String) {
        let first = started.withLock { scripts in
            scripts.append(script)
            return scripts.count == 1
        }
        guard first else { return }
        atexit {
            for script in TestServers.started.withLock({ $0 }) { _ = try? TestServers.run(script, "stop") }
        }
    }
}
