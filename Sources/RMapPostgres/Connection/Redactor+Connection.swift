import RMap

extension Redactor {
    /// The redactor of a connection string's password, for messages before they reach an error.
    ///
    /// The password is found with libpq's own parser and, because libpq quotes a URI's
    /// malformed parts in its messages, also as written in the `scheme://user:password@` part
    /// of a URI: both forms are hidden, besides any URL's password.
    init(conninfo: String, options: ConnectionOptions) {
        var found = Self.writtenPassword(inURI: conninfo).map { [$0] } ?? []
        if let parsed = options.value(for: "password") {
            found.append(parsed)
        }
        self.init(secrets: found)
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
