import Foundation

/// The answer to one request of a push, as a child task hands it back: the
/// request's position in the plan and the server's response or the failure.
///
/// Sending is a plain `async` function that returns a `Result` (no throwing
/// closure in the task group): optimised builds corrupted the value a
/// `do throws(HTTPError)` closure returned from a child task (docs/push.md).
struct PushAnswer: Sendable {
    /// The request's position in the plan.
    var index: Int
    /// The response, or why there was none.
    var result: Result<HTTPResponse, HTTPError>

    /// Sends `request` with `client` and wraps what came back.
    static func send(_ request: HTTPRequest, index: Int, client: HTTPClient) async -> PushAnswer {
        do {
            return PushAnswer(index: index, result: .success(try await client.send(request)))
        } catch {
            return PushAnswer(index: index, result: .failure(error))
        }
    }
}
