/// The requests a source skipped (the `http` source's `on_status: {404: skip}`), counted per
/// entity for the run's report (`skipped`).
///
/// ```swift
/// context.skipped.record(entity: "CRMProject")
/// ```
public final class SkippedRequests: Sendable {
    private let counts = Locked([String: Int]())

    /// No requests skipped yet.
    public init() {}

    /// Counts one request of `entity` skipped.
    public func record(entity: String) {
        counts.withLock { $0[entity, default: 0] += 1 }
    }

    /// The requests skipped so far, by entity.
    public var byEntity: [String: Int] {
        counts.withLock { $0 }
    }
}
