import Foundation

/// One of the process's output streams: results go to ``standardOutput``,
/// progress and diagnostics to ``standardError``.
struct TextOutput: Sendable {
    private let handle: FileHandle
    /// True when the stream is a terminal (so progress may redraw a line).
    let isTerminal: Bool

    /// Standard output.
    static let standardOutput = TextOutput(handle: .standardOutput, descriptor: STDOUT_FILENO)
    /// Standard error.
    static let standardError = TextOutput(handle: .standardError, descriptor: STDERR_FILENO)

    private init(handle: FileHandle, descriptor: Int32) {
        self.handle = handle
        isTerminal = isatty(descriptor) == 1
    }

    /// Writes text as it is.
    func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    /// Writes text and a newline.
    func line(_ text: String) {
        write(text + "\n")
    }
}
