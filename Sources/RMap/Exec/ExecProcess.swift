import Foundation
import Synchronization

/// A running `exec` program with its three pipes: rmap writes its standard
/// input and reads its standard output and error at the same time, each on a
/// thread of its own (``exchange(_:origin:redact:feed:answer:)``), so neither
/// side waits for the other to finish and neither is held whole in memory.
///
/// `Process` is used only to start and stop the program, which it allows from any thread.
final class ExecProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output: FileHandle
    private let errors: FileHandle
    private let exit = ExitStatus()
    /// Set when rmap stopped the program because of an error of its own.
    private let stopped = Atomic(false)

    /// A program that stops reading must not kill rmap with `SIGPIPE`: a write then fails with `EPIPE`.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Starts `command`.
    ///
    /// - Throws: ``ExecError`` when there is no such program or it cannot start.
    init(_ command: ExecCommand, origin: String) throws(ExecError) {
        Self.ignoreBrokenPipes
        let environment = ProcessInfo.processInfo.environment.merging(command.environment) { _, own in own }
        guard
            let program = ProgramPath.resolve(
                command.words[0], searchPath: environment["PATH"], directory: command.directory)
        else {
            throw ExecError(
                origin: origin, message: "cannot start: no executable '\(command.words[0])' (looked up on PATH)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(command.words.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: command.directory)
        process.environment = environment
        let pipes = (input: Pipe(), output: Pipe(), errors: Pipe())
        process.standardInput = pipes.input
        process.standardOutput = pipes.output
        process.standardError = pipes.errors
        input = pipes.input.fileHandleForWriting
        output = pipes.output.fileHandleForReading
        errors = pipes.errors.fileHandleForReading
        let exit = self.exit
        process.terminationHandler = { exit.finish($0.terminationStatus) }
        do {
            try process.run()
        } catch {
            throw ExecError(origin: origin, message: "cannot start: \(error.localizedDescription)")
        }
    }

    /// Writes bytes to the program's standard input; false once the program no longer reads it.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(
                    input.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Runs the program to its end: `feed` writes its input (closed when `feed` returns) on one
    /// thread while `answer` reads its output lines on another, and a third keeps the end of its
    /// standard error for messages.
    ///
    /// - Throws: ``ExecError`` for a non-zero exit (with the end of its standard error, passed
    ///   through `redact`); else the error `answer` or `feed` threw (the program is then stopped).
    /// - Returns: what `answer` returned.
    func exchange<Answered: Sendable>(
        origin: String, redact: @escaping @Sendable (String) -> String,
        feed: @escaping @Sendable (ExecProcess) throws -> Void,
        answer: @escaping @Sendable (inout LineReader) throws -> Answered
    ) async throws -> Answered {
        async let fed = DedicatedThread.run { [self] in
            defer { try? input.close() }
            do { try feed(self) } catch {
                stop()
                throw error
            }
        }
        async let answered = DedicatedThread.run { [self] in
            var lines = LineReader(handle: output)
            do { return try answer(&lines) } catch {
                stop()
                throw error
            }
        }
        async let tail = DedicatedThread.run { [errors] in ChildProgram.tail(of: errors) }
        let results = await (fed: fed, answered: answered, tail: tail)
        let status = await exit.value
        if stopped.load(ordering: .acquiring) {
            try results.fed.get()
            _ = try results.answered.get()
        }
        guard status == 0 else {
            let detail = String(decoding: results.tail.get(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw ExecError(
                origin: origin, message: "exited with status \(status)" + (detail.isEmpty ? "" : ": \(redact(detail))"))
        }
        try results.fed.get()
        return try results.answered.get()
    }

    private func stop() {
        stopped.store(true, ordering: .releasing)
        process.terminate()
    }
}
