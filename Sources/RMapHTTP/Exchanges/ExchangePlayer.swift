public import Foundation
import RMap

/// Answers requests from a recording (``ExchangeLog/replay(_:)``): each request gets the next
/// answer recorded for its method, URL and body (compared redacted, as they were saved), in the
/// order they were recorded; nothing is sent.
public final class ExchangePlayer: Sendable {
    /// Where the recording is.
    public let directory: URL
    /// The exchanges not replayed yet, by match key, oldest first.
    private let waiting: Locked<[String: ArraySlice<RecordedExchange>]>
    /// How many exchanges the recording holds.
    private let count: Int

    /// Reads the recording's index.
    ///
    /// - Throws: ``ExchangeLogError`` when it is missing or a line is not an exchange.
    init(directory: URL) throws(ExchangeLogError) {
        self.directory = directory
        let path = directory.appendingPathComponent(ExchangeLog.indexName)
        let text: String
        do {
            text = try String(contentsOf: path, encoding: .utf8)
        } catch {
            throw .cannotRead(path: path.path, reason: error.localizedDescription)
        }
        var exchanges: [String: [RecordedExchange]] = [:]
        var count = 0
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty {
            do {
                let exchange = try RecordedExchange(line: String(line))
                exchanges[exchange.key, default: []].append(exchange)
                count += 1
            } catch {
                throw .invalidLine(path: path.path, line: offset + 1, reason: error.reason)
            }
        }
        waiting = Locked(exchanges.mapValues { $0.sorted { $0.number < $1.number }[...] })
        self.count = count
    }

    /// The next recorded answer to `request`, its body where `body` says.
    ///
    /// - Throws: the recorded failure, ``HTTPError/Reason/recording(_:)`` when no answer is left
    ///   for it, or ``HTTPError/Reason/tooLarge(limit:)``.
    func answer(
        _ request: HTTPRequest, body: BodyDestination, redactor: Redactor
    ) async throws(HTTPError.Reason) -> HTTPResponse {
        let (url, text) = RecordedExchange.redacted(request, redactor: redactor)
        let key = RecordedExchange.key(method: request.method.rawValue, url: url, body: text)
        guard let exchange = waiting.withLock({ $0[key]?.popFirst() }) else {
            throw .recording("no answer left in \(directory.path) for this request (the recording has \(count))")
        }
        switch exchange.outcome {
        case .failure(let reason):
            throw reason
        case .response(let status, let headers, let name):
            let file = directory.appendingPathComponent(name)
            var response = HTTPResponse(status: status, headers: HTTPHeaders(headers), url: request.url)
            let destination = response.isSuccess ? body.file : nil
            let loaded = await DedicatedThread.run { () throws(HTTPError.Reason) -> Data? in
                try Self.load(file, into: destination, limit: body.limit)
            }
            response.body = try loaded.get() ?? Data()
            return response
        }
    }

    /// The body in `file`: copied to `destination` (returning `nil`) or read.
    private static func load(_ file: URL, into destination: URL?, limit: Int) throws(HTTPError.Reason) -> Data? {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
        guard let size else { throw .recording("\(file.path) is missing") }
        guard size <= limit else { throw .tooLarge(limit: limit) }
        do {
            guard let destination else { return try Data(contentsOf: file) }
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.copyItem(at: file, to: destination)
            return nil
        } catch {
            throw .recording("cannot read \(file.path): \(error.localizedDescription)")
        }
    }
}
