import Foundation

/// A program started directly (no shell; found as ``ProgramPath`` finds it), its standard
/// output (and, when asked, its standard input) piped to rmap, and the last 64 KiB of its
/// standard error kept for the message of a non-zero exit.
///
/// The one program runner: the `exec` and `singer` sources read its output line by line
/// (``ProgramCommand/run(_:origin:redact:eachLine:)``), and ``ExecProcess`` (the exec stage
/// and transformer) also writes its input.
///
/// `Process` is used only to start and stop the program, which it allows from any thread.
final class ChildProgram: Sendable {
    /// Its standard input: a pipe when started `withInput`, else `/dev/null`.
    let input: FileHandle
    /// Its standard output.
    let output: FileHandle
    private let process: Process
    private let exit = ExitStatus()
    private let errorTail: Task<Data, Never>

    /// Starts `words` (the program, then its arguments) in `directory`, with `environment` added
    /// to rmap's own.
    ///
    /// - Throws: the error `failure` makes of the reason when no executable has the first word or
    ///   it cannot start.
    init<Failure: Error>(
        _ words: [String], adding environment: [String: String], directory: String, withInput: Bool,
        failure: (String) -> Failure
    ) throws(Failure) {
        let environment = ProcessInfo.processInfo.environment.merging(environment) { _, own in own }
        guard let program = ProgramPath.resolve(words[0], searchPath: environment["PATH"], directory: directory)
        else {
            throw failure("cannot start: no executable '\(words[0])' (looked up on PATH)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(words.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let pipes = (input: withInput ? Pipe() : nil, output: Pipe(), errors: Pipe())
        process.standardInput = pipes.input ?? FileHandle.nullDevice
        process.standardOutput = pipes.output
        process.standardError = pipes.errors
        input = pipes.input?.fileHandleForWriting ?? FileHandle.nullDevice
        output = pipes.output.fileHandleForReading
        let exit = self.exit
        process.terminationHandler = { exit.finish($0.terminationStatus) }
        do {
            try process.run()
        } catch {
            throw failure("cannot start: \(error.localizedDescription)")
        }
        let errors = pipes.errors.fileHandleForReading
        errorTail = Task { await DedicatedThread.run { Self.tail(of: errors) }.get() }
    }

    /// Stops the program (`SIGTERM`).
    func terminate() { process.terminate() }

    /// Waits for the program to exit: `nil` for status 0, else what an error says, e.g.
    /// `exited with status 3: <the end of its stderr, passed through redact>`.
    func exitProblem(redact: (String) -> String) async -> String? {
        let status = await exit.value
        guard status != 0 else { return nil }
        let detail = String(decoding: await errorTail.value, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return "exited with status \(status)" + (detail.isEmpty ? "" : ": \(redact(detail))")
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
