import Foundation
import FuzzSupport
import RMap
import RMapHTTP

/// The API key the client sends in the query; no message may show it.
private let secret = "fuzz-secret-key-0123"

/// libFuzzer's entry: the bytes are a server's answer to a page request (see
/// ``ReplayTransport/answer(_:url:)``). The client reads it as the `http`
/// source does: retries, then the `Link` and `Location` headers, the JSON
/// body and each entity's records in it. Failures must be ``HTTPError``s
/// whose messages hide the key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Input(Data(bytes: data, count: size))
    let done = DispatchSemaphore(value: 0)
    // libFuzzer calls on its own thread, never a cooperative one: waiting here blocks no task.
    Task {
        await read(input.bytes)
        done.signal()
    }
    done.wait()
    // The task may still hold `input` for a moment after it signals; the bytes are freed here,
    // before libFuzzer counts this input's allocations (Data keeps its storage pointer tagged in
    // spare bits, which LeakSanitizer cannot follow: held only by the task, it looked leaked).
    input.bytes = Data()
    return 0
}

/// The input's bytes, in a box the harness empties before it returns.
private final class Input: @unchecked Sendable {
    var bytes: Data

    init(_ bytes: Data) {
        self.bytes = bytes
    }
}

private func read(_ bytes: Data) async {
    let client = HTTPClient(
        auth: .apiKey(.param("api_key"), value: secret), retry: RetryPolicy(retries: 1, sleep: { _ in }),
        transport: ReplayTransport(bytes: bytes))
    let request = HTTPRequest(.get, url: URL(string: "https://api.example.com/v1/people.json?page=2")!)
    do {
        let response = try await client.send(request)
        _ = response.links
        _ = response.location
        let document = try client.json(response, for: request)
        for entity in FuzzFixtures.model.entities {
            _ = try? RecordSelection.records(in: document, for: entity, origin: client.redact(request.url))
        }
    } catch {
        precondition(!error.description.contains(secret), "the error shows the API key: \(error)")
    }
}

/// A transport that answers every request with the same written answer.
private struct ReplayTransport: HTTPTransport {
    var bytes: Data

    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        Self.answer(bytes, url: request.url)
    }

    /// An answer written as text: the status on the first line (200 when it
    /// is not a number), `Name: value` header lines up to an empty line,
    /// then the body, bytes as they come.
    static func answer(_ bytes: Data, url: URL) -> HTTPResponse {
        let blank = bytes.firstRange(of: Data("\n\n".utf8))
        let head = String(decoding: bytes[..<(blank?.lowerBound ?? bytes.endIndex)], as: UTF8.self)
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false)[...]
        let status = lines.popFirst().flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 200
        let fields = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPResponse(
            status: status, headers: HTTPHeaders(fields), body: blank.map { bytes[$0.upperBound...] } ?? Data(),
            url: url)
    }
}
