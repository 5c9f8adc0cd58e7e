public import Foundation

/// When and how long the client waits before sending a failed request again.
///
/// Connection errors, timeouts, `429 Too Many Requests` and `5xx` answers are
/// retried up to ``retries`` times with exponential backoff and jitter: the
/// n-th retry waits a random time between half and all of
/// `baseDelay × 2^(n-1)`, at most ``maximumDelay``. A `Retry-After` header
/// (seconds or an HTTP date) replaces the backoff, also capped at
/// ``maximumDelay`` (the ``HTTPClient`` waits out a rate limit's announced wait
/// in full instead, up to its `maxWait`). Other `4xx` answers fail at once.
///
/// A request that is not idempotent (`POST`, `PATCH`) is retried only when the
/// server certainly did not act on it: the connection could not be made, or
/// the answer was `429` or `503`.
///
/// ```swift
/// let policy = RetryPolicy(retries: 5, baseDelay: .milliseconds(200))
/// ```
public struct RetryPolicy: Sendable {
    /// How many times a failed request is sent again (0: never).
    public var retries: Int
    /// The wait before the first retry (before jitter).
    public var baseDelay: Duration
    /// The longest wait, for backoff and `Retry-After` alike.
    public var maximumDelay: Duration
    /// The clock the policy reads `Retry-After` dates against.
    public var now: @Sendable () -> Date
    /// Waits; tests inject one that records instead of sleeping.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a policy.
    public init(
        retries: Int = 3, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.now = now
        self.sleep = sleep
    }

    /// The wait before retry number `retry` (1-based), given the failed answer's `Retry-After`.
    func delay(beforeRetry retry: Int, retryAfter: String?) -> Duration {
        if let retryAfter, let wait = RetryAfter.parse(retryAfter, now: now()) {
            return min(wait, maximumDelay)
        }
        let exponential = baseDelay * (1 << min(retry - 1, 30))
        return min(exponential * Double.random(in: 0.5...1), maximumDelay)
    }

    /// True when a request that failed this way may be sent again.
    func mayRetry(_ method: HTTPMethod, after failure: HTTPError.Reason) -> Bool {
        switch failure {
        case .status(let status):
            status == 429 || status == 503 || (status >= 500 && method.isIdempotent)
        case .cannotConnect:
            true
        case .timeout, .connectionLost:
            method.isIdempotent
        case .invalidJSON, .cancelled, .tooLarge, .spool, .tooManyRedirects, .rateLimited, .oauth2, .recording:
            false
        case .headerBreaksLine:
            false
        }
    }
}

/// Reads `Retry-After` values: delay seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The wait the value asks for (never negative), or `nil` when it is not readable.
    static func parse(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite {
            return .milliseconds(Int64(max(0, seconds) * 1000))
        }
        guard let date = httpDate(text) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) or the obsolete RFC 850 and asctime forms.
    private static func httpDate(_ text: String) -> Date? {
        for pattern in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
