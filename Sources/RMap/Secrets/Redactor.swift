import Foundation

/// Hides secrets in text: the one place rmap redacts, for messages, progress, reports,
/// `rmap inspect`, errors of every engine and what it keeps of a server's answers.
///
/// These are hidden, each replaced by `***`:
/// - each secret given (the values `${VAR}` read for credentials, tokens, passwords), as
///   written and as it appears percent-encoded in a URL's query;
/// - the password of a URL's user information, whatever it is (`postgres://ann:***@db/crm`,
///   `http://bob:***@api.example.com`);
/// - unless asked not to, the value of an `Authorization` field echoed in text (a server's
///   error body that repeats the request's headers), whatever credentials it holds. The
///   model's redactor keeps them (``MappingModel/redactor``): `rmap inspect` shows
///   `Authorization: Bearer ***` for a header whose token it hides.
///
/// A redactor ``watching(_:)`` a ``LiveSecrets`` also hides the secrets issued while rmap runs.
///
/// ```swift
/// let redactor = Redactor(secrets: ["s3cret"])
/// redactor.redact("https://x.test/items?api_key=s3cret")   // "https://x.test/items?api_key=***"
/// redactor.redact("postgres://ann:pw@db/crm")               // "postgres://ann:***@db/crm"
/// ```
public struct Redactor: Sendable, Hashable {
    /// What stands for a hidden secret.
    public static let mark = "***"

    /// The forms hidden, longest first (so a secret inside another is not half-hidden).
    private let forms: [String]
    /// Whether every `Authorization` field's value is hidden.
    public let hidesAuthorizationFields: Bool
    /// Secrets issued while rmap runs, hidden too.
    private let live: [LiveSecrets]

    /// Creates a redactor for `secrets` (empty strings are ignored) that also hides every
    /// `Authorization` field's value unless `hidingAuthorizationFields` is false.
    public init(secrets: some Sequence<String>, hidingAuthorizationFields: Bool = true) {
        self.init(forms: Self.forms(of: secrets), hidingAuthorizationFields: hidingAuthorizationFields, live: [])
    }

    private init(forms: [String], hidingAuthorizationFields: Bool, live: [LiveSecrets]) {
        self.forms = forms
        hidesAuthorizationFields = hidingAuthorizationFields
        self.live = live
    }

    /// A redactor that hides these secrets too.
    public func adding(_ secrets: some Sequence<String>) -> Redactor {
        Redactor(
            forms: Self.forms(of: Set(forms).union(secrets)), hidingAuthorizationFields: hidesAuthorizationFields,
            live: live)
    }

    /// A redactor that also hides every secret `secrets` holds, now or later.
    public func watching(_ secrets: LiveSecrets) -> Redactor {
        live.contains { $0 === secrets }
            ? self : Redactor(forms: forms, hidingAuthorizationFields: hidesAuthorizationFields, live: live + [secrets])
    }

    /// Every form hidden now, the secrets issued so far included, longest first.
    public var secretForms: [String] {
        let issued = live.reduce(into: Set<String>()) { $0.formUnion($1.current) }
        return issued.isEmpty ? forms : Self.forms(of: Set(forms).union(issued))
    }

    /// `text` with every secret and every URL's password (and, when asked, every `Authorization`
    /// value) replaced by `***`.
    public func redact(_ text: String) -> String {
        var hidden = secretForms.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.mark) }
        if hidden.contains("://") {
            // scheme://user:password@: the password stops at the first '@' after it, as in a URI.
            hidden = hidden.replacing(#/([A-Za-z][A-Za-z0-9+.\-]*://[^:/?#@\s"'<>]*:)[^@/?#\s"'<>]+@/#) { match in
                match.output.1 + Self.mark + "@"
            }
        }
        guard hidesAuthorizationFields else { return hidden }
        return hidden.replacing(#/(?i)(authorization["']?\s*[:=]\s*["']?)[^"'\r\n,}]+/#) { match in
            match.output.1 + Self.mark
        }
    }

    /// A value as a URL's query carries it: every character but the unreserved ones (and `,`)
    /// percent-encoded, spaces as `%20`, as rmap's HTTP client writes queries.
    public static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }

    /// Each secret as written and percent-encoded, longest first.
    private static func forms(of secrets: some Sequence<String>) -> [String] {
        var forms: Set<String> = []
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            forms.insert(percentEncoded(secret))
        }
        return forms.sorted { ($0.count, $0) > ($1.count, $1) }
    }

    public static func == (lhs: Redactor, rhs: Redactor) -> Bool {
        lhs.forms == rhs.forms && lhs.hidesAuthorizationFields == rhs.hidesAuthorizationFields
            && lhs.live.map(ObjectIdentifier.init) == rhs.live.map(ObjectIdentifier.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(forms)
        hasher.combine(hidesAuthorizationFields)
        for secrets in live { hasher.combine(ObjectIdentifier(secrets)) }
    }

    private static let queryAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")
}

extension Redactor: CustomReflectable {
    /// Nothing: the secrets must not show up in `dump` or debugger output.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
