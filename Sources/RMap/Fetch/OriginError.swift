/// The shape of an error that names what failed (a file, URL, command or one
/// line of a program's output) and how: ``FetchError`` and ``ExecError``.
///
/// Its description is `origin: message`, e.g. `exec python3 enrich.py line 3: not JSON: ...`.
public protocol OriginError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    var origin: String { get }
    /// What went wrong, as a sentence.
    var message: String { get }
}

extension OriginError {
    /// `origin: message`.
    public var description: String { "\(origin): \(message)" }
}
