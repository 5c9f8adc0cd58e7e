internal import CLibPQ

/// The options libpq reads from a connection string (URI or key/value), or
/// none when libpq rejects it.
struct ConnectionOptions {
    private var values: [String: String] = [:]

    init(parsing conninfo: String) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            PQfreemem(errorMessage)
            return
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                values[String(cString: keyword)] = String(cString: value)
            }
            option += 1
        }
    }

    /// The value given for `keyword` (`host`, `port`, `dbname`, `user`, `password`).
    func value(for keyword: String) -> String? {
        values[keyword]
    }
}
