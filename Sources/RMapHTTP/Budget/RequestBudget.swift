import RMap

/// Paces the requests that share it: the configured ``RateLimit`` (at most `requests` starts
/// in any interval of `per`) and the waits servers announce (``AnnouncedLimit``).
///
/// Each request reserves its start before it is sent, in order, so concurrent requests never
/// start more than the limit allows, however they interleave: a start is due when the request
/// `requests` reservations back is `per` old, and not before an announced wait is over. The
/// state is the last `requests` starts, whatever the run's length.
///
/// A server counts a request when it reads it, a little after rmap starts it, and reads the
/// requests of a burst later the more of them there are (each a new connection). So that the
/// budget holds as the server counts too, starts are at least min(`per`/`requests`, 10 ms)
/// apart, and a start comes min(`per`/100, 10 ms) after the `per` is over: at 10 requests a
/// second, a 30-second run is 1% longer than the bare limit would allow (`scripts/bench-budget`).
///
/// ```swift
/// let budget = RequestBudget(limit: RateLimit(requests: 10, per: .seconds(1)))
/// if let wait = try budget.reserve(maxWait: .seconds(900))?.wait { try await Task.sleep(for: wait) }
/// ```
public final class RequestBudget: Sendable {
    /// A reserved start that is not due yet.
    struct Reservation: Sendable, Hashable {
        /// How long until the start.
        var wait: Duration
        /// What asks for the wait: `rate_limit (10 requests per 1 s)`, `the server's rate limit (Retry-After)`.
        var reason: String
    }

    /// A start that would come later than the caller may wait.
    struct TooLong: Error, Sendable, Hashable {
        /// How long the request would wait.
        var wait: Duration
        /// What asks for the wait.
        var reason: String
    }

    private struct State {
        /// The last `limit.requests` reserved starts, the oldest at `oldest` once full.
        var starts: [ContinuousClock.Instant] = []
        var oldest = 0
        /// The latest reserved start: starts are reserved in order.
        var latest: ContinuousClock.Instant?
        /// Until when the server asked for no request, and the header that asked.
        var blocked: (until: ContinuousClock.Instant, header: String)?
    }

    /// The configured budget, if any.
    public let limit: RateLimit?
    private let state = Locked(State())

    /// Creates a budget; without `limit` it paces only by what servers announce.
    public init(limit: RateLimit? = nil) {
        self.limit = limit
    }

    /// Reserves the next start; `nil` when it is due now.
    ///
    /// - Parameters:
    ///   - maxWait: the longest wait allowed; a longer one reserves nothing and throws.
    ///   - ignoringAnnounced: a retry that already waited out the server's wait itself.
    /// - Throws: ``TooLong`` with the wait and its reason.
    func reserve(maxWait: Duration, ignoringAnnounced: Bool = false) throws(TooLong) -> Reservation? {
        let now = ContinuousClock.now
        return try state.withLock { state throws(TooLong) -> Reservation? in
            var start = max(now, state.latest ?? now)
            var reason = "rate_limit"
            if !ignoringAnnounced, let blocked = state.blocked, blocked.until > start {
                start = blocked.until
                reason = "the server's rate limit (\(blocked.header))"
            }
            if let limit {
                let spacing = min(limit.per / limit.requests, .milliseconds(10))
                if let latest = state.latest, latest + spacing > start {
                    start = latest + spacing
                    reason = "rate_limit (\(limit))"
                }
                let room = min(limit.per / 100, .milliseconds(10))
                if state.starts.count == limit.requests, state.starts[state.oldest] + limit.per + room > start {
                    start = state.starts[state.oldest] + limit.per + room
                    reason = "rate_limit (\(limit))"
                }
            }
            let wait = start - now
            guard wait <= maxWait else { throw TooLong(wait: wait, reason: reason) }
            state.latest = start
            if let limit {
                if state.starts.count < limit.requests {
                    state.starts.append(start)
                } else {
                    state.starts[state.oldest] = start
                    state.oldest = (state.oldest + 1) % limit.requests
                }
            }
            return wait > .zero ? Reservation(wait: wait, reason: reason) : nil
        }
    }

    /// Takes what an answer said of the server's budget: no request starts before its wait is over.
    func observe(_ announced: AnnouncedLimit) {
        let until = ContinuousClock.now + announced.wait
        state.withLock { state in
            if let blocked = state.blocked, blocked.until >= until { return }
            state.blocked = (until, announced.header)
        }
    }
}
