public import Foundation

/// Every HTTP exchange of a run saved to a directory (`rmap run --record DIR`), or served back
/// from one with no network (`rmap run --replay DIR`), so that a bug report or a CI job needs
/// no server.
///
/// The directory holds `exchanges.jsonl`, one line per exchange in the order they finished, and
/// a file per answer body (`000001.body`, ...). Secrets are redacted in every part of it (URLs,
/// header values, request bodies, answer bodies; the values of headers named like credentials
/// are `***` whatever they hold). A replay answers each request with the next answer recorded
/// for the same method, URL and request body, compared after redaction; requests for which
/// nothing is left fail (``HTTPError/Reason/notRecorded(_:)``). The format is in docs/cli.md.
///
/// ```swift
/// let log = try ExchangeLog.recording(to: URL(fileURLWithPath: "exchanges"))
/// let client = HTTPClient(transport: CurlTransport(), exchanges: log)
/// ```
public enum ExchangeLog: Sendable {
    /// Exchanges are sent and saved.
    case record(ExchangeRecorder)
    /// Exchanges are answered from a recording; nothing is sent.
    case replay(ExchangePlayer)

    /// The name of the index file in a recording's directory.
    public static let indexName = "exchanges.jsonl"

    /// A log that records into `directory` (created when missing; it must hold no recording yet).
    ///
    /// - Throws: ``ExchangeLogError`` when the directory cannot be made or already holds a recording.
    public static func recording(to directory: URL) throws(ExchangeLogError) -> ExchangeLog {
        .record(try ExchangeRecorder(directory: directory))
    }

    /// A log that answers from the recording in `directory`.
    ///
    /// - Throws: ``ExchangeLogError`` when the directory holds no readable recording.
    public static func replaying(from directory: URL) throws(ExchangeLogError) -> ExchangeLog {
        .replay(try ExchangePlayer(directory: directory))
    }
}

/// A recording that cannot be made or read.
public enum ExchangeLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--record` names a directory that already holds a recording.
    case alreadyRecorded(directory: String)
    /// The directory or a file in it cannot be written.
    case cannotWrite(path: String, reason: String)
    /// `--replay` names a directory without a recording, or one that cannot be read.
    case cannotRead(path: String, reason: String)
    /// A line of `exchanges.jsonl` is not an exchange.
    case invalidLine(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .alreadyRecorded(let directory):
            "\(directory) already holds a recording (\(ExchangeLog.indexName)); record into an empty directory"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .cannotRead(let path, let reason): "cannot read the recording \(path): \(reason)"
        case .invalidLine(let path, let line, let reason): "\(path):\(line): not a recorded exchange: \(reason)"
        }
    }
}
