/// The documents an `http` source reads and a push writes (`format:`).
public enum DocumentFormat: String, Sendable, Hashable, CaseIterable {
    /// Rails and ActiveResource JSON: records, wrapped or bare (the default).
    case rails
    /// JSON:API documents (jsonapi.org): resources in `data` and `included`, linkage, `links.next`.
    case jsonapi

    /// The media type of JSON:API documents, sent as `Accept` and as a push's `Content-Type`.
    public static let jsonAPIMediaType = "application/vnd.api+json"
}
