import Foundation

/// Hides secrets in text shown to people: URLs, error messages, response bodies.
///
/// Each secret is hidden as written and as it appears percent-encoded in a URL;
/// so is the value of any `Authorization` field echoed in text (an error body
/// that repeats the request's headers), whatever credentials it holds.
///
/// ```swift
/// let redactor = Redactor(secrets: ["s3cret"])
/// redactor.redact("https://x.test/items?api_key=s3cret")   // "https://x.test/items?api_key=***"
/// ```
public struct Redactor: Sendable, Hashable {
    /// The forms hidden, longest first (so a secret inside another is not half-hidden).
    private let forms: [String]

    /// Creates a redactor for `secrets` (empty strings are ignored).
    public init(secrets: some Sequence<String>) {
        var forms: Set<String> = []
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            forms.insert(QueryEncoding.encode(secret))
        }
        self.forms = forms.sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// A redactor that hides these secrets too.
    public func adding(_ secrets: some Sequence<String>) -> Redactor {
        Redactor(secrets: Set(forms).union(secrets))
    }

    /// `text` with every secret, and every `Authorization` value, replaced by `***`.
    public func redact(_ text: String) -> String {
        let hidden = forms.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
        return hidden.replacing(#/(?i)(authorization["']?\s*[:=]\s*["']?)[^"'\r\n,}]+/#) { match in
            match.output.1 + "***"
        }
    }
}
