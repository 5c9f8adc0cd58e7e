/// Where a ``PostgresConnection`` goes, as shown in messages: never the password.
///
/// ```swift
/// let endpoint = PostgresEndpoint(host: "127.0.0.1", port: "5432", database: "crm", user: "rmap")
/// print(endpoint)  // database "crm" on 127.0.0.1:5432 as user "rmap"
/// ```
public struct PostgresEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The host name, address or socket directory.
    public var host: String
    /// The port, as given or libpq's default.
    public var port: String
    /// The database name.
    public var database: String
    /// The role the connection logs in as.
    public var user: String

    /// Creates an endpoint.
    public init(host: String, port: String, database: String, user: String) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
    }

    /// `database "crm" on 127.0.0.1:5432 as user "rmap"`.
    public var description: String {
        "database \"\(database)\" on \(host):\(port) as user \"\(user)\""
    }
}
