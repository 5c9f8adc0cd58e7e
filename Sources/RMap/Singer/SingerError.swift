/// A Singer message stream that rmap cannot read: the line it came from and what is wrong.
///
/// `tap-people line 12: RECORD for stream 'people' has no 'record' object`.
public struct SingerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tap's command or `stdin` (secrets redacted).
    public var origin: String
    /// The 1-based line of the message, when one is at fault.
    public var line: Int?
    /// What is wrong, as a sentence.
    public var message: String

    /// Creates an error.
    public init(origin: String, line: Int?, message: String) {
        self.origin = origin
        self.line = line
        self.message = message
    }

    /// `origin line N: message`.
    public var description: String {
        "\(origin)\(line.map { " line \($0)" } ?? ""): \(message)"
    }
}
