import Foundation
import Synchronization

/// A running `exec` program with its three pipes (a ``ChildProgram`` started with its input):
/// rmap writes its standard input and reads its standard output and error at the same time,
/// each on a thread of its own (``exchange(origin:redact:feed:answer:)``), so neither side
/// waits for the other to finish and neither is held whole in memory.
final class ExecProcess: Sendable {
    private let program: ChildProgram
    /// Set when rmap stopped the program because of an error of its own.
    private let stopped = Atomic(false)

    /// A program that stops reading must not kill rmap with `SIGPIPE`: a write then fails with `EPIPE`.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Starts `command`.
    ///
    /// - Throws: ``ExecError`` when there is no such program or it cannot start.
    init(_ command: ExecCommand, origin: String) throws(ExecError) {
        Self.ignoreBrokenPipes
        program = try ChildProgram(
            command.words, adding: command.environment, directory: command.directory, withInput: true,
            timeout: command.timeout
        ) { ExecError(origin: origin, message: $0) }
    }

    /// Writes bytes to the program's standard input; false once the program no longer reads it.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(
                    program.input.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
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
            defer { try? program.input.close() }
            do { try feed(self) } catch {
                stop()
                throw error
            }
        }
        async let answered = DedicatedThread.run { [self] in
            var lines = LineReader(handle: program.output)
            do { return try answer(&lines) } catch {
                stop()
                throw error
            }
        }
        let results = await (fed: fed, answered: answered)
        let problem = await program.exitProblem(redact: redact)
        if stopped.load(ordering: .acquiring) {
            try results.fed.get()
            _ = try results.answered.get()
        }
        if let problem { throw ExecError(origin: origin, message: problem) }
        try results.fed.get()
        return try results.answered.get()
    }

    private func stop() {
        stopped.store(true, ordering: .releasing)
        program.terminate()
    }
}
