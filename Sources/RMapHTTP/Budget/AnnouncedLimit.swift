import Foundation

/// What an answer says of the server's request budget, without any configuration:
/// `Retry-After` (on a `429` or `503`), `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`
/// (epoch seconds, GitHub's), and `RateLimit-Remaining: 0` with `RateLimit-Reset` (seconds
/// from now, the IETF draft's).
///
/// ```swift
/// if let limit = AnnouncedLimit(response, now: Date()) { print(limit.wait, limit.header) }
/// ```
struct AnnouncedLimit: Sendable, Hashable {
    /// How long the server asks the client to wait before its next request.
    var wait: Duration
    /// The header that asks for it, for messages.
    var header: String

    /// An `X-RateLimit-Reset` below this is seconds from now, not a date (some APIs send that).
    private static let earliestEpoch = 1_000_000_000.0

    /// The longest wait `response` asks for, or `nil` when it asks none.
    init?(_ response: HTTPResponse, now: Date) {
        var found: [AnnouncedLimit] = []
        if [429, 503].contains(response.status), let value = response.headers["Retry-After"],
            let wait = RetryAfter.parse(value, now: now)
        {
            found.append(AnnouncedLimit(wait: wait, header: "Retry-After"))
        }
        if Self.exhausted(response, "X-RateLimit-Remaining"), let reset = Self.number(response, "X-RateLimit-Reset") {
            let seconds = reset < Self.earliestEpoch ? reset : reset - now.timeIntervalSince1970
            found.append(AnnouncedLimit(wait: .seconds(max(0, seconds)), header: "X-RateLimit-Reset"))
        }
        if Self.exhausted(response, "RateLimit-Remaining"), let reset = Self.number(response, "RateLimit-Reset") {
            found.append(AnnouncedLimit(wait: .seconds(max(0, reset)), header: "RateLimit-Reset"))
        }
        guard let longest = found.max(by: { $0.wait < $1.wait }) else { return nil }
        self = longest
    }

    private init(wait: Duration, header: String) {
        self.wait = wait
        self.header = header
    }

    /// True when `response` is a rate limit rather than a failure: a `429`, or a `403` that says
    /// no request is left (GitHub answers its primary rate limit so).
    static func isRateLimit(_ response: HTTPResponse) -> Bool {
        response.status == 429
            || (response.status == 403
                && (exhausted(response, "X-RateLimit-Remaining") || exhausted(response, "RateLimit-Remaining")))
    }

    private static func exhausted(_ response: HTTPResponse, _ name: String) -> Bool {
        number(response, name) == 0
    }

    private static func number(_ response: HTTPResponse, _ name: String) -> Double? {
        response.headers[name].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
            $0.isFinite ? $0 : nil
        }
    }
}
