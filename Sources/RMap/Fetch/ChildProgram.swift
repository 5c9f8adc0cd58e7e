import Foundation

/// A program started directly (no shell; found as ``ProgramPath`` finds it),
/// its standard output read line by line (``forEachLine(_:)``), the last 64 KiB of its
/// standard error kept for errors, and no standard input.
///
/// The `exec` and `singer` sources run their programs this way.
struct ChildProgram {
    private let output: FileHandle
    private let origin: String
    private let process: Process
    private let exit = ExitStatus()
    private let stderrTask: Task<Data, Never>

    /// Starts `command` in `directory` with `environment`.
    ///
    /// - Parameter origin: what errors name (the command, secrets redacted).
    /// - Throws: ``FetchError`` when no executable has the command's first word or it cannot start.
    init(command: [String], environment: [String: String], directory: String, origin: String) throws(FetchError) {
        self.origin = origin
        guard let program = ProgramPath.resolve(command[0], searchPath: environment["PATH"], directory: directory)
        else {
            throw FetchError(origin: origin, message: "cannot start: no executable '\(command[0])' (looked up on PATH)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exit = self.exit
        process.terminationHandler = { exit.finish($0.terminationStatus) }
        do {
            try process.run()
        } catch {
            throw FetchError(origin: origin, message: "cannot start: \(error.localizedDescription)")
        }
        let errorOutput = errors.fileHandleForReading
        stderrTask = Task { await DedicatedThread.run { Self.tail(of: errorOutput) }.get() }
        self.output = output.fileHandleForReading
    }

    /// Hands each line of the program's output, with its 1-based number, to `body`; stops
    /// the program when `body` throws.
    func forEachLine(_ body: ([UInt8], Int) async throws -> Void) async throws {
        do {
            try await LineReader.forEachLine(of: output, body)
        } catch {
            process.terminate()
            throw error
        }
    }

    /// Waits for the program to exit.
    ///
    /// - Parameter redact: hides secrets in the stderr an error shows.
    /// - Throws: ``FetchError`` with the tail of its stderr when it exits with a non-zero status.
    func finish(redact: (String) -> String) async throws(FetchError) {
        let status = await exit.value
        let stderr = String(decoding: await stderrTask.value, as: UTF8.self)
        guard status == 0 else {
            let detail = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            throw FetchError(
                origin: origin, message: "exited with status \(status)" + (detail.isEmpty ? "" : ": \(redact(detail))"))
        }
    }

    /// The last 64 KiB a pipe carries until it closes: a program's stderr is
    /// shown in errors but never held whole, however much it writes.
    static func tail(of handle: FileHandle, keeping limit: Int = 1 << 16) -> Data {
        var kept = Data()
        while true {
            let chunk = handle.readData(ofLength: limit)
            if chunk.isEmpty { return kept }
            kept.append(chunk)
            if kept.count > limit { kept = kept.suffix(limit) }
        }
    }
}
