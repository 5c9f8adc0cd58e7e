extension HTTPHeaders {
    /// The words that make a header's value a credential: `Authorization`, `Cookie`, `X-API-Key`,
    /// `X-Auth-Token`, `Set-Cookie`, `X-Session`, ...
    static let sensitiveWords = ["auth", "cookie", "key", "secret", "token", "session", "password"]

    /// True when a header named `name` carries credentials (its value is never shown or saved).
    static func isSensitive(_ name: String) -> Bool {
        let name = name.lowercased()
        return sensitiveWords.contains { name.contains($0) }
    }
}
