/// A request that failed: no answer, an answer with an error status, or a body
/// that is not the JSON expected. Secrets are already redacted.
///
/// Its description names the method, the URL, the status and the start of
/// the body, e.g.
/// `GET http://127.0.0.1:3000/people/99.json: HTTP 404 after 1 attempt: {"status":404,"error":"Not Found"}`.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// Why the request failed.
    public enum Reason: Sendable, Hashable {
        /// The server answered with this non-2xx status.
        case status(Int)
        /// No answer within the timeout.
        case timeout
        /// The connection could not be made (the server never saw the request).
        case cannotConnect(String)
        /// The connection broke before a whole answer arrived.
        case connectionLost(String)
        /// The body is not valid JSON (the parser's message, with its position).
        case invalidJSON(String)
        /// The task was cancelled.
        case cancelled
        /// The body grew past this many bytes (`max_body_bytes`); reading stopped there.
        case tooLarge(limit: Int)
        /// The body could not be written to its temporary file.
        case spool(String)
        /// The answer redirected more than ``Redirect/limit`` times.
        case tooManyRedirects
        /// A header field's name or value held a line break or NUL (``HTTPHeaders/breaksLine(_:)``):
        /// the request was not sent. The field is named; its value is never shown.
        case headerBreaksLine(String)
        /// A rate limit asked for a longer wait than `max_wait`: what asked (`rate_limit (10
        /// requests per 1 s)`, `the server's rate limit (X-RateLimit-Reset)`) and for how long.
        case rateLimited(wait: Duration, maxWait: Duration, reason: String)
        /// The OAuth2 token endpoint answered something that is not a token.
        case oauth2(String)
        /// A recording (`--record`, `--replay`) could not be written, or holds no answer for the request.
        case recording(String)
    }

    /// The request's method.
    public var method: HTTPMethod
    /// The request's URL, redacted.
    public var url: String
    /// Why it failed.
    public var reason: Reason
    /// How many times the request was sent.
    public var attempts: Int
    /// The answer, for a status error or invalid JSON (its body is not redacted:
    /// a pusher reads `422` validation errors from it; show ``bodyPrefix`` instead).
    public var response: HTTPResponse?
    /// The start of the answer's body (about 200 characters), redacted; empty without an answer.
    public var bodyPrefix: String

    /// Creates an error.
    public init(
        method: HTTPMethod, url: String, reason: Reason, attempts: Int = 1, response: HTTPResponse? = nil,
        bodyPrefix: String = ""
    ) {
        self.method = method
        self.url = url
        self.reason = reason
        self.attempts = attempts
        self.response = response
        self.bodyPrefix = bodyPrefix
    }

    /// The status code, when the server answered.
    public var status: Int? { response?.status }

    /// `METHOD URL`, what the error is about.
    public var request: String { "\(method.rawValue) \(url)" }

    /// What went wrong, without the request: `HTTP 503 after 4 attempts: {"error": ...}`.
    public var message: String {
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        let problem: String
        switch reason {
        case .status(let status): problem = "HTTP \(status) after \(tries)"
        case .timeout: problem = "timed out after \(tries)"
        case .cannotConnect(let detail): problem = "cannot connect (\(detail)) after \(tries)"
        case .connectionLost(let detail): problem = "connection lost (\(detail)) after \(tries)"
        case .invalidJSON(let detail): problem = "HTTP \(status.map(String.init) ?? "?") with \(detail)"
        case .cancelled: problem = "cancelled"
        case .tooLarge(let limit):
            problem = "the answer is larger than max_body_bytes (\(limit) bytes); stopped reading it"
        case .spool(let detail): problem = "cannot keep the answer in a temporary file (\(detail))"
        case .tooManyRedirects: problem = "more than \(Redirect.limit) redirects"
        case .headerBreaksLine(let name):
            let shown = HTTPHeaders.breaksLine(name) ? "(its name)" : name
            problem =
                "not sent: header '\(shown)' holds a line break (CR or LF) or NUL, which would start another header"
        case .rateLimited(let wait, let maxWait, let reason):
            problem =
                "\(reason) asks for a wait of \(WaitText.duration(wait)), longer than max_wait"
                + " (\(WaitText.duration(maxWait))); raise max_wait or try later"
        case .oauth2(let detail): problem = "oauth2: \(detail)"
        case .recording(let detail): problem = "recording: \(detail)"
        }
        return bodyPrefix.isEmpty ? problem : "\(problem): \(bodyPrefix)"
    }

    public var description: String { "\(request): \(message)" }
}
