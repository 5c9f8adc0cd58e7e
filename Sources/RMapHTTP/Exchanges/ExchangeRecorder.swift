public import Foundation
import RMap

/// Saves every exchange of a run into a directory (``ExchangeLog/record(_:)``), redacted.
///
/// Each exchange gets the next number when its answer is complete; its body is copied (with
/// secrets replaced, a piece at a time) on a thread of its own, then its line is appended to
/// `exchanges.jsonl`.
public final class ExchangeRecorder: Sendable {
    /// Where the recording goes.
    public let directory: URL
    private let index: Locked<(next: Int, file: FileHandle)>

    /// Starts a recording in `directory`, which is created when missing.
    ///
    /// - Throws: ``ExchangeLogError`` when it cannot be made or already holds a recording.
    init(directory: URL) throws(ExchangeLogError) {
        self.directory = directory
        let path = directory.appendingPathComponent(ExchangeLog.indexName)
        guard !FileManager.default.fileExists(atPath: path.path) else {
            throw .alreadyRecorded(directory: directory.path)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            index = Locked((1, try FileHandle(forWritingTo: path)))
        } catch {
            throw .cannotWrite(path: path.path, reason: error.localizedDescription)
        }
    }

    /// Saves one exchange: the request as sent, and the answer (its body in memory, or in
    /// `bodyFile` for a success spooled there) or the failure.
    ///
    /// - Throws: ``ExchangeLogError`` when the recording cannot be written.
    func record(
        _ request: HTTPRequest, outcome: Result<HTTPResponse, HTTPError.Reason>, bodyFile: URL?, redactor: Redactor
    ) async throws(ExchangeLogError) {
        let number = index.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        let (url, body) = RecordedExchange.redacted(request, redactor: redactor)
        let headers = Self.redacted(request.headers, redactor: redactor)
        let saved: RecordedExchange.Outcome
        switch outcome {
        case .failure(let reason):
            saved = .failure(reason)
        case .success(let response):
            let name = String(format: "%06d.body", number)
            let spooled = response.isSuccess ? bodyFile : nil
            try await save(response.body, or: spooled, as: name, hiding: redactor.secretForms)
            saved = .response(
                status: response.status, headers: Self.redacted(response.headers, redactor: redactor), body: name)
        }
        let exchange = RecordedExchange(
            number: number, method: request.method.rawValue, url: url, headers: headers, body: body, outcome: saved)
        let line = Data((exchange.line + "\n").utf8)
        let path = directory.appendingPathComponent(ExchangeLog.indexName).path
        try index.withLock { state throws(ExchangeLogError) in
            do {
                try state.file.write(contentsOf: line)
            } catch {
                throw .cannotWrite(path: path, reason: error.localizedDescription)
            }
        }
    }

    /// Writes a body (`memory`, or the file `spooled`) as `name`, secrets hidden, off the cooperative pool.
    private func save(
        _ memory: Data, or spooled: URL?, as name: String, hiding secrets: [String]
    ) async throws(ExchangeLogError) {
        let destination = directory.appendingPathComponent(name)
        let result = await DedicatedThread.run { () throws(ExchangeLogError) in
            do {
                if let spooled, FileManager.default.fileExists(atPath: spooled.path) {
                    try RedactingCopy.copy(spooled, to: destination, hiding: secrets)
                } else {
                    try RedactingCopy.write(memory, to: destination, hiding: secrets)
                }
            } catch {
                throw .cannotWrite(path: destination.path, reason: error.localizedDescription)
            }
        }
        try result.get()
    }

    /// Header fields with the values of credential-like names replaced by `***`, others redacted.
    private static func redacted(_ headers: HTTPHeaders, redactor: Redactor) -> [(name: String, value: String)] {
        headers.map { field in
            (field.name, HTTPHeaders.isSensitive(field.name) ? "***" : redactor.redact(field.value))
        }
    }
}
