/// Removes a connection string's password from messages before they reach
/// an error.
///
/// The password is found with libpq's own parser and, because libpq quotes
/// a URI's malformed parts in its messages, also as written in the
/// `scheme://user:password@` part of a URI. Both forms are removed.
struct PasswordRedactor {
    private let secrets: [String]

    init(conninfo: String, options: ConnectionOptions) {
        var found = Self.writtenPassword(inURI: conninfo).map { [$0] } ?? []
        if let parsed = options.value(for: "password") {
            found.append(parsed)
        }
        secrets = Set(found.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    /// `text` with every occurrence of the password replaced by `***`.
    func callAsFunction(_ text: String) -> String {
        secrets.reduce(text) { $0.replacing($1, with: "***") }
    }

    private static func writtenPassword(inURI conninfo: String) -> String? {
        guard let schemeEnd = conninfo.range(of: "://") else { return nil }
        let afterScheme = conninfo[schemeEnd.upperBound...]
        guard let at = afterScheme.lastIndex(of: "@"),
            let colon = afterScheme[..<at].firstIndex(of: ":")
        else { return nil }
        return String(afterScheme[afterScheme.index(after: colon)..<at])
    }
}

extension PasswordRedactor: CustomReflectable {
    /// Nothing: the password must not show up in `dump` or debugger output.
    var customMirror: Mirror { Mirror(self, children: []) }
}
