/// An entity's incremental fetch (`incremental:`): each run asks only for what
/// changed since the largest `cursor` value the store has seen, by sending it
/// (less ``lag``, written in ``format``) as the query parameter ``param``.
///
/// ```yaml
/// incremental: { cursor: updatedAt, param: updated_since, lag: 5m }
/// ```
public struct IncrementalSync: Sendable, Hashable {
    /// The attribute whose largest value is the cursor (a datetime, date, integer or string).
    public var cursor: String
    /// The query parameter that carries the cursor, e.g. `updated_since` or `since_id`.
    public var param: String
    /// The parameter's value while the store holds no cursor; `nil` fetches everything then.
    public var initial: String?
    /// Seconds subtracted from a date or datetime cursor, re-reading a window for servers with
    /// clock skew or late commits.
    public var lag: Int
    /// How a date or datetime cursor is written (`%Y-%m-%dT%H:%M:%S`, ...); `nil`: ISO 8601 with milliseconds.
    public var format: String?

    /// Creates an incremental fetch.
    public init(cursor: String, param: String, initial: String? = nil, lag: Int = 0, format: String? = nil) {
        self.cursor = cursor
        self.param = param
        self.initial = initial
        self.lag = lag
        self.format = format
    }
}
