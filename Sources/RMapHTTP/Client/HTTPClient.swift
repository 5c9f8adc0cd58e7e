public import Foundation
public import RMap

/// Sends requests to a JSON API with default headers, authentication, a
/// timeout and retries, and reports failures with secrets redacted.
///
/// The fetch source and the pusher share it: the source sends `GET`s and
/// reads JSON pages; a pusher sends `PUT`/`PATCH`/`POST`/`DELETE` with JSON
/// bodies and reads the answer's JSON or its `Location` header. A `422`
/// arrives as an ``HTTPError`` whose ``HTTPError/response`` holds the
/// validation errors.
///
/// ```swift
/// let client = HTTPClient(auth: .bearer(token), redactor: Redactor(secrets: model.secrets))
/// let response = try await client.send(HTTPRequest(.post, url: peopleURL, json: body))
/// let created = try client.json(response, for: request)   // or response.location when the body is empty
/// ```
public struct HTTPClient: Sendable {
    /// Headers sent with every request (`Accept: application/json` unless replaced).
    public var headers: HTTPHeaders
    /// Credentials added to every request.
    public var auth: HTTPAuth?
    /// How long one attempt may wait for its answer.
    public var timeout: Duration
    /// When failed requests are sent again.
    public var retry: RetryPolicy
    /// Hides secrets (the auth's and the caller's) in URLs, bodies and errors.
    public let redactor: Redactor
    /// Sends the requests.
    public var transport: any HTTPTransport

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - headers: headers for every request, over `Accept: application/json`.
    ///   - auth: credentials for every request; their values are redacted.
    ///   - timeout: the limit for one attempt (default 30 s).
    ///   - retry: the retry policy (default 3 retries).
    ///   - redactor: the secrets to hide besides the auth's (e.g. the model's `${VAR}` values).
    ///   - transport: the network (default: `URLSession`).
    public init(
        headers: HTTPHeaders = HTTPHeaders(), auth: HTTPAuth? = nil, timeout: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(), redactor: Redactor = Redactor(secrets: []),
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.headers = HTTPHeaders([("Accept", "application/json")]).merging(headers)
        self.auth = auth
        self.timeout = timeout
        self.retry = retry
        self.redactor = redactor.adding(auth?.secrets ?? [])
        self.transport = transport
    }

    /// Sends a request, retrying as the policy allows, and returns a 2xx answer.
    ///
    /// - Parameters:
    ///   - request: the request; the client adds its headers and credentials.
    ///   - onRetry: told, before each wait, what failed and how long the wait is (redacted).
    /// - Throws: ``HTTPError`` when no 2xx answer came after the allowed attempts.
    public func send(
        _ request: HTTPRequest, onRetry: @Sendable (String) -> Void = { _ in }
    ) async throws(HTTPError) -> HTTPResponse {
        var prepared = request
        prepared.headers = headers.merging(request.headers)
        if let auth { prepared = auth.apply(to: prepared) }
        var attempt = 0
        while true {
            attempt += 1
            let failure: HTTPError.Reason
            var answer: HTTPResponse?
            do {
                let response = try await transport.send(prepared, timeout: timeout)
                if response.isSuccess { return response }
                failure = .status(response.status)
                answer = response
            } catch {
                failure = error
            }
            let error = self.error(prepared, reason: failure, attempts: attempt, response: answer)
            guard attempt <= retry.retries, retry.mayRetry(prepared.method, after: failure), !Task.isCancelled else {
                throw error
            }
            let wait = retry.delay(beforeRetry: attempt, retryAfter: answer?.headers["Retry-After"])
            onRetry("\(error.request): \(error.message); retry \(attempt) of \(retry.retries) in \(Self.seconds(wait))")
            do {
                try await retry.sleep(wait)
            } catch {
                throw self.error(prepared, reason: .cancelled, attempts: attempt, response: nil)
            }
        }
    }

    /// The JSON body of `response` (an answer to `request`).
    ///
    /// - Throws: ``HTTPError`` with ``HTTPError/Reason/invalidJSON(_:)`` naming the position.
    public func json(_ response: HTTPResponse, for request: HTTPRequest) throws(HTTPError) -> JSONValue {
        do {
            return try JSONReader.parse(response.body, origin: redact(request.url))
        } catch {
            let position = error.line.map { "line \($0), column \(error.column ?? 0)" }
            let detail = "invalid JSON" + (position.map { " at \($0)" } ?? "") + " (\(error.message))"
            throw self.error(request, reason: .invalidJSON(detail), attempts: 1, response: response)
        }
    }

    /// `url` as text with secrets hidden, for messages and payload origins.
    public func redact(_ url: URL) -> String {
        redactor.redact(url.absoluteString)
    }

    private func error(
        _ request: HTTPRequest, reason: HTTPError.Reason, attempts: Int, response: HTTPResponse?
    ) -> HTTPError {
        HTTPError(
            method: request.method, url: redact(request.url), reason: reason, attempts: attempts, response: response,
            bodyPrefix: shortened(redactor.redact(response?.bodyPrefix(1000) ?? "")))
    }

    /// The first 200 characters of already redacted text (redacting first, so no secret is cut in half).
    private func shortened(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f s", seconds)
    }
}
