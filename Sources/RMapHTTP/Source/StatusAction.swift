/// What an error status means for the request that got it (`on_status: {404: skip}`).
enum StatusAction: String, Sendable, Hashable, CaseIterable {
    /// The request yields no records, and its index ends there; counted as `skipped`.
    case skip
    /// The run fails (what every error status does by default).
    case fail
}
