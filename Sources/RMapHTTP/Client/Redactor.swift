import Foundation

/// Hides secrets in text shown to people: URLs, error messages, response bodies.
///
/// Each secret is hidden as written and as it appears percent-encoded in a URL;
/// so is the value of any `Authorization` field echoed in text (an error body
/// that repeats the request's headers), whatever credentials it holds. A redactor
/// ``watching(_:)`` a ``LiveSecrets`` also hides the secrets issued while rmap runs.
///
/// ```swift
/// let redactor = Redactor(secrets: ["s3cret"])
/// redactor.redact("https://x.test/items?api_key=s3cret")   // "https://x.test/items?api_key=***"
/// ```
public struct Redactor: Sendable, Hashable {
    /// The forms hidden, longest first (so a secret inside another is not half-hidden).
    private let forms: [String]
    /// Secrets issued while rmap runs, hidden too.
    private let live: [LiveSecrets]

    /// Creates a redactor for `secrets` (empty strings are ignored).
    public init(secrets: some Sequence<String>) {
        self.init(forms: Self.forms(of: secrets), live: [])
    }

    private init(forms: [String], live: [LiveSecrets]) {
        self.forms = forms
        self.live = live
    }

    /// A redactor that hides these secrets too.
    public func adding(_ secrets: some Sequence<String>) -> Redactor {
        Redactor(forms: Self.forms(of: Set(forms).union(secrets)), live: live)
    }

    /// A redactor that also hides every secret `secrets` holds, now or later.
    public func watching(_ secrets: LiveSecrets) -> Redactor {
        live.contains { $0 === secrets } ? self : Redactor(forms: forms, live: live + [secrets])
    }

    /// `text` with every secret, and every `Authorization` value, replaced by `***`.
    public func redact(_ text: String) -> String {
        let hidden = secretForms.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
        return hidden.replacing(#/(?i)(authorization["']?\s*[:=]\s*["']?)[^"'\r\n,}]+/#) { match in
            match.output.1 + "***"
        }
    }

    /// Every form hidden now, the secrets issued so far included, longest first.
    var secretForms: [String] {
        let issued = live.reduce(into: Set<String>()) { $0.formUnion($1.current) }
        return issued.isEmpty ? forms : Self.forms(of: Set(forms).union(issued))
    }

    /// Each secret as written and percent-encoded, longest first.
    private static func forms(of secrets: some Sequence<String>) -> [String] {
        var forms: Set<String> = []
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            forms.insert(QueryEncoding.encode(secret))
        }
        return forms.sorted { ($0.count, $0) > ($1.count, $1) }
    }

    public static func == (lhs: Redactor, rhs: Redactor) -> Bool {
        lhs.forms == rhs.forms && lhs.live.map(ObjectIdentifier.init) == rhs.live.map(ObjectIdentifier.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(forms)
        for secrets in live { hasher.combine(ObjectIdentifier(secrets)) }
    }
}
