/// What ``Session/save()`` did.
public struct SaveReport: Sendable {
    /// The push's report: requests sent, acknowledged, and what is still pending with the server's reasons.
    public var push: PushReport
    /// The inserted objects the server created, as stored now (permanent identities, server-set values).
    public var created: [LiveObject]
}
