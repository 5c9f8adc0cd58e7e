import Foundation
import RMap

/// A transport that passes requests on and notes the successful writes whose
/// answer had no body, so that the session can read those objects again.
final class AnswerRecorder: HTTPTransport {
    private let base: any HTTPTransport
    /// `METHOD url` -> the URL to read the object from (the `Location` of a `POST`, else the request's URL).
    private let answers = Locked<[String: String]>([:])

    init(base: any HTTPTransport) {
        self.base = base
    }

    /// The URL to read again after `method` on `path` (a planned request's path), when its answer had no body.
    func refreshURL(method: String, path: String) -> String? {
        answers.withLock { answers in
            answers.first { $0.key.hasPrefix(method + " ") && $0.key.hasSuffix(path) }?.value
        }
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        note(request, try await base.send(request, timeout: timeout))
    }

    func send(_ request: HTTPRequest, timeout: Duration, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
    {
        note(request, try await base.send(request, timeout: timeout, body: body))
    }

    private func note(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        guard response.isSuccess, request.method != .delete, request.method != .get, response.body.isEmpty else {
            return response
        }
        let location = response.headers["Location"].flatMap { URL(string: $0, relativeTo: request.url)?.absoluteString }
        let target = request.method == .post ? location : request.url.absoluteString
        if let target {
            answers.withLock { $0["\(request.method.rawValue) \(request.url.absoluteString)"] = target }
        }
        return response
    }
}
