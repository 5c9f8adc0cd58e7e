import Foundation

/// A program started directly (no shell; found as ``ProgramPath`` finds it), its standard
/// output (and, when asked, its standard input) piped to rmap, and the last 64 KiB of its
/// standard error kept for the message of a non-zero exit.
///
/// The one program runner: the `exec` and `singer` sources read its output line by line
/// (``ProgramCommand/run(_:origin:redact:eachLine:)``), and ``ExecProcess`` (the exec stage
/// and transformer) also writes its input.
///
/// The program starts as ``ProgramSpawn`` starts it: in a process group of its own, with
/// a clean signal mask. It is stopped by signalling the whole group (``LivePrograms``, which
/// also stops every running program when rmap is interrupted), and killed when a `timeout`
/// passes before it ends. A thread of its own waits for it and reaps it.
final class ChildProgram: Sendable {
    /// Its standard input: a pipe when started `withInput`, else `/dev/null`.
    let input: FileHandle
    /// Its standard output.
    let output: FileHandle
    /// Its process id: it leads its own process group.
    private let pid: pid_t
    private let exit = ExitStatus()
    private let errorTail: Task<Data, Never>
    /// How long it may run, if it has a limit.
    private let timeout: Duration?
    /// Set when the timeout stopped it.
    private let timedOut = Locked(false)

    /// How long a program stopped with `SIGTERM` may take to end before it gets `SIGKILL`.
    static let grace: Duration = LivePrograms.defaultGrace

    /// Starts `words` (the program, then its arguments) in `directory`, with `environment` added
    /// to rmap's own, stopped if it still runs after `timeout`.
    ///
    /// - Throws: the error `failure` makes of the reason when no executable has the first word or
    ///   it cannot start.
    init<Failure: Error>(
        _ words: [String], adding environment: [String: String], directory: String, withInput: Bool,
        timeout: Duration? = nil, failure: (String) -> Failure
    ) throws(Failure) {
        let environment = ProcessInfo.processInfo.environment.merging(environment) { _, own in own }
        guard let program = ProgramPath.resolve(words[0], searchPath: environment["PATH"], directory: directory)
        else {
            throw failure("cannot start: no executable '\(words[0])' (looked up on PATH)")
        }
        let pipes = (input: withInput ? Pipe() : nil, output: Pipe(), errors: Pipe())
        let exit = self.exit
        do {
            pid = try LivePrograms.start(exit: exit) { () throws(ProgramSpawn.Failure) in
                try ProgramSpawn.start(
                    program, arguments: Array(words.dropFirst()), environment: environment,
                    directory: directory.isEmpty ? "." : directory,
                    streams: (
                        pipes.input?.fileHandleForReading.fileDescriptor,
                        pipes.output.fileHandleForWriting.fileDescriptor,
                        pipes.errors.fileHandleForWriting.fileDescriptor
                    ))
            }
        } catch {
            throw failure("cannot start: \(error.reason)")
        }
        // The program holds its ends now: rmap's copies go, so that its output ends when it does.
        try? pipes.input?.fileHandleForReading.close()
        try? pipes.output.fileHandleForWriting.close()
        try? pipes.errors.fileHandleForWriting.close()
        input = pipes.input?.fileHandleForWriting ?? FileHandle.nullDevice
        output = pipes.output.fileHandleForReading
        self.timeout = timeout
        let pid = pid
        let reaper = Thread {
            let status = ProgramSpawn.wait(for: pid)
            LivePrograms.remove(pid)
            exit.finish(status)
        }
        reaper.name = "rmap-child-wait"
        reaper.start()
        let errors = pipes.errors.fileHandleForReading
        errorTail = Task { await DedicatedThread.run { Self.tail(of: errors) }.get() }
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(timeout)) { [weak self] in
                self?.expire()
            }
        }
    }

    /// Stops the program and what it started (`SIGTERM` to its process group), then kills what
    /// is left of the group (`SIGKILL`) after ``grace``.
    func terminate() {
        let pid = self.pid
        LivePrograms.stop(pid, with: SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(Self.grace)) {
            LivePrograms.stop(pid, with: SIGKILL)
        }
    }

    /// Waits for the program to exit: `nil` for status 0, else what an error says, e.g.
    /// `exited with status 3: <the end of its stderr, passed through redact>`, or, when its
    /// timeout stopped it, `did not finish within 30 s (its timeout): stopped`.
    func exitProblem(redact: (String) -> String) async -> String? {
        let status = await exit.value
        if let timeout, timedOut.withLock({ $0 }) {
            return "did not finish within \(Self.text(timeout)) (its timeout): stopped"
        }
        guard status != 0 else { return nil }
        let detail = String(decoding: await errorTail.value, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return "exited with status \(status)" + (detail.isEmpty ? "" : ": \(redact(detail))")
    }

    /// Stops the program when its timeout passed before it ended.
    private func expire() {
        guard !exit.isFinished else { return }
        timedOut.withLock { $0 = true }
        terminate()
    }

    /// `30 s`, `0.5 s`: a duration as messages show it.
    static func text(_ duration: Duration) -> String {
        String(format: "%g s", seconds(duration))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
