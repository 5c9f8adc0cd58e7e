import Foundation
import RMapHTTP

/// `rmap run --record DIR` or `--replay DIR`: the HTTP exchanges saved to a directory, or
/// answered from one (``ExchangeLog``).
enum ExchangeOption {
    case record(String)
    case replay(String)

    /// The option given, `nil` for neither.
    ///
    /// - Throws: ``UsageError`` when both are given.
    init?(record: String?, replay: String?, command: CommandSpec) throws(UsageError) {
        switch (record, replay) {
        case (nil, nil): return nil
        case (let directory?, nil): self = .record(directory)
        case (nil, let directory?): self = .replay(directory)
        default: throw command.usageError("--record and --replay cannot be used together")
        }
    }

    /// The log: a new recording, or the one to replay.
    ///
    /// - Throws: ``ExchangeLogError`` when the directory cannot be recorded to or read.
    func open() throws(ExchangeLogError) -> ExchangeLog {
        switch self {
        case .record(let directory): try .recording(to: URL(fileURLWithPath: directory))
        case .replay(let directory): try .replaying(from: URL(fileURLWithPath: directory))
        }
    }
}
