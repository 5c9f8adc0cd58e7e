/// A request budget set in the mapping (`rate_limit: {requests: 10, per: 1s}`): at most
/// ``requests`` requests start in any interval of length ``per``.
///
/// ```swift
/// let limit = RateLimit(requests: 10, per: .seconds(1))
/// ```
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    /// The most requests that start in one interval.
    public var requests: Int
    /// The interval's length.
    public var per: Duration

    /// Creates a budget of `requests` per `per`.
    public init(requests: Int, per: Duration) {
        self.requests = requests
        self.per = per
    }

    /// `10 requests per 1s`, as messages show it.
    public var description: String {
        "\(requests) request\(requests == 1 ? "" : "s") per \(WaitText.duration(per))"
    }
}
