import Foundation
import RMap

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

    /// How many times a request is sent again, within one push, while the server answers that an
    /// earlier attempt with its idempotency key is still in flight (``PlannedRequest/isInFlight(answered:)``).
    static let inFlightRetries = 6

    /// Sends `request` with `client` and wraps what came back.
    ///
    /// An answer saying that an earlier attempt with the request's key is still being processed
    /// (`409`, `425` to a `POST`) is waited out: the same request, key and all, goes again after
    /// the client's backoff (or the answer's `Retry-After`), up to ``inFlightRetries`` times.
    static func send(_ request: HTTPRequest, planned: PlannedRequest, index: Int, client: HTTPClient) async
        -> PushAnswer
    {
        var retry = 0
        while true {
            do {
                return PushAnswer(index: index, result: .success(try await client.send(request)))
            } catch {
                let failure = PushAnswer(index: index, result: .failure(error))
                guard let status = error.status, planned.isInFlight(answered: status), retry < inFlightRetries,
                    !Task.isCancelled
                else { return failure }
                retry += 1
                let wait = client.retry.delay(beforeRetry: retry, retryAfter: error.response?.headers["Retry-After"])
                // Cancelled while waiting: the answer stays the server's, the key stays in the journal.
                guard (try? await client.retry.sleep(wait)) != nil else { return failure }
            }
        }
    }
}
