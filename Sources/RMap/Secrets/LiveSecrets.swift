/// Secrets that exist only while rmap runs (an OAuth2 access token, a refresh token the server
/// rotated): added as they are issued, so that every ``Redactor`` watching them hides them from
/// then on. Kept in memory only, never written anywhere.
///
/// ```swift
/// let live = LiveSecrets()
/// let redactor = Redactor(secrets: []).watching(live)
/// live.insert("tok-123")
/// redactor.redact("Bearer tok-123")   // "Bearer ***"
/// ```
public final class LiveSecrets: Sendable {
    private let values = Locked<Set<String>>([])

    /// Creates an empty set.
    public init() {}

    /// Hides `secret` from now on (an empty string is ignored).
    public func insert(_ secret: String) {
        guard !secret.isEmpty else { return }
        _ = values.withLock { $0.insert(secret) }
    }

    /// The secrets issued so far.
    var current: Set<String> { values.withLock { $0 } }
}
