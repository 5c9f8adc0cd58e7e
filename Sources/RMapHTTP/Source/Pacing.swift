import RMap

/// `rate_limit` and `max_wait`: how a source's requests are paced.
struct Pacing: Sendable, Hashable {
    /// The option keys.
    static let keys = ["rate_limit", "max_wait"]

    /// `rate_limit: {requests, per}`, shared by every request of the source.
    var rateLimit: RateLimit?
    /// The longest wait for a budget (default 15 minutes).
    var maxWait = Duration.seconds(900)

    /// No configured budget; servers' announced waits up to 15 minutes.
    init() {}

    /// Reads `rate_limit` and `max_wait`.
    init(_ reader: OptionReader) throws(PluginError) {
        let example = "'rate_limit: {requests: 10, per: 1s}'"
        if let node = try reader.block("rate_limit", allowed: ["requests", "per"], example: example) {
            let requests = try reader.required("requests", in: node, "'rate_limit'", example: example)
            guard let count = requests.scalar?.int, count > 0 else {
                throw reader.fail(requests, "'rate_limit.requests' must be a whole number greater than 0")
            }
            let per = try reader.duration(
                try reader.required("per", in: node, "'rate_limit'", example: example), "'rate_limit.per'")
            rateLimit = RateLimit(requests: count, per: per)
        }
        if let node = reader.options["max_wait"], !(node.scalar?.isNull ?? false) {
            maxWait = try reader.duration(node, "'max_wait'", zero: true)
        }
    }
}
