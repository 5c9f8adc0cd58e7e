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
    /// Paces the requests: the configured rate limit and the waits servers announce.
    public var budget: RequestBudget
    /// The longest a request waits for the budget before it fails (default 15 minutes).
    public var maxWait: Duration
    /// Where exchanges are recorded, or answered from; `nil`: sent and forgotten.
    public var exchanges: ExchangeLog?
    /// Told of each answer before it is recorded or returned (the token endpoint's client makes
    /// the tokens it carries secrets, so that no recording or message shows them).
    var inspectAnswer: (@Sendable (HTTPResponse) -> Void)?

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
    ///   - budget: the rate limit shared with other clients (default: only what servers announce).
    ///   - maxWait: the longest wait for the budget (default 15 minutes).
    ///   - exchanges: a recording to write, or to answer from instead of the network.
    public init(
        headers: HTTPHeaders = HTTPHeaders(), auth: HTTPAuth? = nil, timeout: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(), redactor: Redactor = Redactor(secrets: []),
        transport: any HTTPTransport = URLSessionTransport(), scope: CredentialScope = CredentialScope(),
        maxBodyBytes: Int = 256 << 20, budget: RequestBudget = RequestBudget(), maxWait: Duration = .seconds(900),
        exchanges: ExchangeLog? = nil
    ) {
        self.headers = headers
        self.auth = auth
        self.timeout = timeout
        self.retry = retry
        let redactor = redactor.adding(auth?.secrets ?? [])
        if case .oauth2(let session) = auth {
            self.redactor = redactor.watching(session.secrets)
        } else {
            self.redactor = redactor
        }
        self.transport = transport
        self.scope = scope
        self.maxBodyBytes = maxBodyBytes
        self.budget = budget
        self.maxWait = maxWait
        self.exchanges = exchanges
    }

    /// Sends a request, following redirects and retrying as the policy allows, and returns a 2xx answer.
    ///
    /// ``headers`` and ``auth`` go only to the origins ``scope`` trusts: a
    /// redirect or a request to another origin carries `Accept` and the
    /// request's own headers alone. Redirects (`301`, `302`, `303`, `307`,
    /// `308`) are followed up to 10 times, each hop retried on its own.
    /// Each attempt waits for the ``budget`` first. A rate limit (a `429`, or a `403` that says
    /// no request is left) is retried after the wait the server announces, however long, up
    /// to ``maxWait``; an OAuth2 token answered `401` is renewed once.
    ///
    /// - Parameters:
    ///   - request: the request; the client adds its headers and credentials.
    ///   - bodyFile: a file for the 2xx answer's body (its ``HTTPResponse/body`` is then empty);
    ///     `nil` keeps it in memory.
    ///   - onRetry: told, before each wait of a retry or of a second or more for the budget,
    ///     what happened and how long the wait is (redacted).
    /// - Throws: ``HTTPError`` when no 2xx answer came after the allowed attempts and redirects,
    ///   the body passed ``maxBodyBytes``, a rate limit asked for more than ``maxWait``, or a
    ///   header holds a line break (nothing is sent then).
    public func send(
        _ request: HTTPRequest, bodyFile: URL? = nil, onRetry: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(HTTPError) -> HTTPResponse {
        var hop = request
        for _ in 0...Redirect.limit {
            let response = try await attempt(
                hop, first: request.url, body: BodyDestination(limit: maxBodyBytes, file: bodyFile), note: onRetry)
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
        _ hop: HTTPRequest, first: URL, body: BodyDestination, note: @escaping @Sendable (String) -> Void
    ) async throws(HTTPError) -> HTTPResponse {
        var prepared = prepare(hop, first: first)
        var session: OAuth2Session?
        if case .oauth2(let oauth2) = auth, scope.trusts(hop.url, first: first) { session = oauth2 }
        var attempt = 0
        var renewed = false
        while true {
            attempt += 1
            // A retry has waited out what the server announced already.
            try await admit(prepared, ignoringAnnounced: attempt > 1, note: note)
            // The token is taken once the request may go: a wait for the budget can outlast it.
            var token: String?
            if let session {
                token = try await session.token(note: note)
                prepared.headers["Authorization"] = token.map { "Bearer \($0)" }
            }
            if let field = prepared.headers.fieldBreakingLine {
                throw self.error(prepared, reason: .headerBreaksLine(field), attempts: 0, response: nil)
            }
            let failure: HTTPError.Reason
            var answer: HTTPResponse?
            do {
                let response = try await exchange(prepared, body: body)
                if let announced = AnnouncedLimit(response, now: retry.now()) { budget.observe(announced) }
                if response.isSuccess || Redirect.isRedirect(response) || response.isNotModified(prepared) {
                    return response
                }
                if response.status == 401, let session, let token, !renewed {
                    // Once: the token may have expired early or been revoked.
                    renewed = true
                    await session.renew(replacing: token)
                    note("\(redact(prepared.url)): HTTP 401; fetching a new OAuth2 token")
                    continue
                }
                failure = .status(response.status)
                answer = response
            } catch {
                failure = error
            }
            let error = self.error(prepared, reason: failure, attempts: attempt, response: answer)
            let limited = answer.map(AnnouncedLimit.isRateLimit) ?? false
            guard attempt <= retry.retries, limited || retry.mayRetry(prepared.method, after: failure),
                !Task.isCancelled
            else { throw error }
            var wait = retry.delay(beforeRetry: attempt, retryAfter: answer?.headers["Retry-After"])
            if limited, let answer, let announced = AnnouncedLimit(answer, now: retry.now()) {
                let reason = "the server's rate limit (\(announced.header))"
                guard announced.wait <= maxWait else {
                    throw self.error(
                        prepared, reason: .rateLimited(wait: announced.wait, maxWait: maxWait, reason: reason),
                        attempts: attempt, response: answer)
                }
                wait = announced.wait
            }
            note("\(error.request): \(error.message); retry \(attempt) of \(retry.retries) in \(Self.seconds(wait))")
            try await sleep(wait, for: prepared, attempts: attempt)
        }
    }

    /// Waits until the budget lets `request` start.
    ///
    /// - Throws: ``HTTPError`` when the wait would be longer than ``maxWait``, or is cancelled.
    private func admit(
        _ request: HTTPRequest, ignoringAnnounced: Bool, note: (String) -> Void
    ) async throws(HTTPError) {
        let reservation: RequestBudget.Reservation?
        do {
            reservation = try budget.reserve(maxWait: maxWait, ignoringAnnounced: ignoringAnnounced)
        } catch {
            throw self.error(
                request, reason: .rateLimited(wait: error.wait, maxWait: maxWait, reason: error.reason), attempts: 1,
                response: nil)
        }
        guard let reservation else { return }
        if reservation.wait >= .seconds(1) {
            note("\(redact(request.url)): \(reservation.reason): waiting \(WaitText.duration(reservation.wait))")
        }
        try await sleep(reservation.wait, for: request, attempts: 1)
    }

    /// Sleeps through the retry policy (which tests replace); a cancelled wait fails the request.
    private func sleep(_ wait: Duration, for request: HTTPRequest, attempts: Int) async throws(HTTPError) {
        do {
            try await retry.sleep(wait)
        } catch {
            throw self.error(request, reason: .cancelled, attempts: attempts, response: nil)
        }
    }

    /// Sends `request` once, or answers it from the recording being replayed; records the
    /// exchange when recording.
    private func exchange(_ request: HTTPRequest, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
    {
        let outcome: Result<HTTPResponse, HTTPError.Reason>
        do {
            if case .replay(let player) = exchanges {
                outcome = .success(try await player.answer(request, body: body, redactor: redactor))
            } else {
                outcome = .success(try await transport.send(request, timeout: timeout, body: body))
            }
        } catch {
            outcome = .failure(error)
        }
        if case .success(let response) = outcome { inspectAnswer?(response) }
        if case .record(let recorder) = exchanges {
            do {
                try await recorder.record(request, outcome: outcome, bodyFile: body.file, redactor: redactor)
            } catch {
                throw .recording(error.description)
            }
        }
        return try outcome.get()
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
