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
/// let created = response.location   // or the JSON in response.body
/// ```
public struct HTTPClient: Sendable {
    /// Headers sent with every request to a trusted origin (over `Accept: application/json`).
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
    /// Which origins receive ``headers`` and ``auth`` (others, reached by a redirect or a link, do not).
    public var scope: CredentialScope
    /// The most bytes an answer's body may have (default 256 MiB).
    public var maxBodyBytes: Int

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - headers: headers for every request, over `Accept: application/json`.
    ///   - auth: credentials for every request; their values are redacted.
    ///   - timeout: the limit for one attempt (default 30 s).
    ///   - retry: the retry policy (default 3 retries).
    ///   - redactor: the secrets to hide besides the auth's (e.g. the model's `${VAR}` values).
    ///   - transport: the network (default: `URLSession`).
    ///   - scope: the origins that get `headers` and `auth` (default: each request's own).
    ///   - maxBodyBytes: the largest body read (default 256 MiB).
    public init(
        headers: HTTPHeaders = HTTPHeaders(), auth: HTTPAuth? = nil, timeout: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(), redactor: Redactor = Redactor(secrets: []),
        transport: any HTTPTransport = URLSessionTransport(), scope: CredentialScope = CredentialScope(),
        maxBodyBytes: Int = 256 << 20
    ) {
        self.headers = headers
        self.auth = auth
        self.timeout = timeout
        self.retry = retry
        self.redactor = redactor.adding(auth?.secrets ?? [])
        self.transport = transport
        self.scope = scope
        self.maxBodyBytes = maxBodyBytes
    }

    /// Sends a request, following redirects and retrying as the policy allows, and returns a 2xx answer.
    ///
    /// ``headers`` and ``auth`` go only to the origins ``scope`` trusts: a
    /// redirect or a request to another origin carries `Accept` and the
    /// request's own headers alone. Redirects (`301`, `302`, `303`, `307`,
    /// `308`) are followed up to 10 times, each hop retried on its own.
    ///
    /// - Parameters:
    ///   - request: the request; the client adds its headers and credentials.
    ///   - bodyFile: a file for the 2xx answer's body (its ``HTTPResponse/body`` is then empty);
    ///     `nil` keeps it in memory.
    ///   - onRetry: told, before each wait, what failed and how long the wait is (redacted).
    /// - Throws: ``HTTPError`` when no 2xx answer came after the allowed attempts and redirects,
    ///   the body passed ``maxBodyBytes``, or a header holds a line break (nothing is sent then).
    public func send(
        _ request: HTTPRequest, bodyFile: URL? = nil, onRetry: @Sendable (String) -> Void = { _ in }
    ) async throws(HTTPError) -> HTTPResponse {
        var hop = request
        for _ in 0...Redirect.limit {
            let prepared = prepare(hop, first: request.url)
            if let field = prepared.headers.fieldBreakingLine {
                throw error(prepared, reason: .headerBreaksLine(field), attempts: 0, response: nil)
            }
            let response = try await attempt(prepared, body: BodyDestination(limit: maxBodyBytes, file: bodyFile)) {
                onRetry($0)
            }
            guard let next = Redirect.next(after: response, of: hop) else { return response }
            hop = next
        }
        throw error(prepare(hop, first: request.url), reason: .tooManyRedirects, attempts: 1, response: nil)
    }

    /// `request` with the client's headers and credentials when ``scope`` trusts its URL,
    /// with `Accept` alone (and no API key in the query) otherwise.
    private func prepare(_ request: HTTPRequest, first: URL) -> HTTPRequest {
        var prepared = request
        guard scope.trusts(request.url, first: first) else {
            prepared.headers = HTTPHeaders([("Accept", headers["Accept"] ?? "application/json")]).merging(
                request.headers)
            if let auth { prepared.url = auth.removingKey(from: prepared.url) }
            return prepared
        }
        prepared.headers = HTTPHeaders([("Accept", "application/json")]).merging(headers).merging(request.headers)
        return auth.map { $0.apply(to: prepared) } ?? prepared
    }

    /// Sends one hop, retrying as the policy allows; returns a 2xx answer, a redirect, or a `304`
    /// to a conditional request.
    private func attempt(
        _ prepared: HTTPRequest, body: BodyDestination, onRetry: (String) -> Void
    ) async throws(HTTPError) -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            let failure: HTTPError.Reason
            var answer: HTTPResponse?
            do {
                let response = try await transport.send(prepared, timeout: timeout, body: body)
                if response.isSuccess || Redirect.isRedirect(response) || response.isNotModified(prepared) {
                    return response
                }
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

    /// The JSON document of an answer held in memory (`request`'s answer).
    ///
    /// - Throws: ``HTTPError`` naming the URL, the parser's position and the start of the body.
    public func json(_ response: HTTPResponse, for request: HTTPRequest) throws(HTTPError) -> JSONValue {
        do {
            return try JSONReader.parse(response.body, origin: redact(request.url))
        } catch {
            let start = String(decoding: response.body.prefix(4000), as: UTF8.self)
            throw invalidJSON(error, for: request, response: response, body: start)
        }
    }

    /// The error for an answer to `request` whose body is not valid JSON: the parser's
    /// position and message, and the start of the body (`body`, redacted here).
    public func invalidJSON(
        _ error: JSONError, for request: HTTPRequest, response: HTTPResponse, body: String
    ) -> HTTPError {
        let position = error.line.map { "line \($0), column \(error.column ?? 0)" }
        let detail = "invalid JSON" + (position.map { " at \($0)" } ?? "") + " (\(error.message))"
        return self.error(request, reason: .invalidJSON(detail), attempts: 1, response: response, body: body)
    }

    /// `url` as text with secrets hidden, for messages and payload origins.
    public func redact(_ url: URL) -> String {
        redactor.redact(url.absoluteString)
    }

    private func error(
        _ request: HTTPRequest, reason: HTTPError.Reason, attempts: Int, response: HTTPResponse?, body: String? = nil
    ) -> HTTPError {
        HTTPError(
            method: request.method, url: redact(request.url), reason: reason, attempts: attempts, response: response,
            bodyPrefix: shortened(redactor.redact(body ?? response?.bodyPrefix(1000) ?? "")))
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
