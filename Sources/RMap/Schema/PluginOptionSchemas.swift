/// The schemas and descriptions of the built-in plugins' options (docs/mapping.md's
/// sources and stores, docs/plugins.md's exec plugins), by kind, plugin and option.
enum PluginOptionSchemas {
    /// The schema of one option; an option no built-in plugin has (a host program's plugin)
    /// takes any value and says whose it is.
    static func schema(kind: String, plugin: String, option: String) -> SchemaNode {
        table["\(kind) \(plugin)"]?[option]
            ?? SchemaNode.anything.described("An option of the '\(plugin)' \(kind) plugin.")
    }

    /// Whether a built-in plugin's option is in the table (what the schema tests check).
    static func isDescribed(kind: String, plugin: String, option: String) -> Bool {
        table["\(kind) \(plugin)"]?[option] != nil
    }

    private static let command = SchemaNode.array(of: .string).described(
        "The program and its arguments, run directly (no shell), from the mapping file's folder.")
    private static let env = SchemaNode.map(of: .string).described("Variables added to the program's environment.")
    private static let timeout = SchemaNode.type("number").described(
        "Seconds the program may run (greater than 0); past it, it is stopped and the run fails.")
    private static let skipUnchanged = SchemaNode.boolean.described(
        "Skip a payload whose bytes are those of the last run's.", default: .bool(false))
    private static let path = SchemaNode.string

    /// The options the `http` and `graphql` sources share.
    private static let client: [String: SchemaNode] = [
        "headers": SchemaNode.map(of: .string).described("Request headers."),
        "auth": SchemaNode.object([
            ("bearer", SchemaNode.string.described("Authorization: Bearer TOKEN.")),
            ("basic", SchemaNode.anything.described("{user, password}.")),
            (
                "api_key",
                SchemaNode.anything.described("{header: X-API-Key, value: ...} or {param: api_key, value: ...}.")
            ),
            (
                "oauth2",
                SchemaNode.object(
                    ["token_url", "client_id", "client_secret", "scope", "grant", "refresh_token"].map {
                        ($0, SchemaNode.string.described("OAuth2 '\($0)'."))
                    }
                ).described("Access tokens from a token endpoint (client credentials or a refresh token).")
            ),
        ]).described("How requests authenticate: bearer, basic, api_key or oauth2."),
        "timeout": SchemaNode.anything.described(
            "Seconds one attempt may wait for its answer.", default: .number("30")),
        "retries": SchemaNode.integer.described(
            "How many times a failed request is sent again.", default: .number("3")),
        "concurrency": SchemaNode.integer.described("Indexes fetched at once.", default: .number("4")),
        "page_size": SchemaNode.integer.described("Records per page."),
        "allow_hosts": SchemaNode.array(of: .string).described(
            "Hosts besides the site's that may receive auth and headers."),
        "max_body_bytes": SchemaNode.integer.described(
            "The largest answer body read, in bytes.", default: .number("268435456")),
        "max_pages": SchemaNode.integer.described("The most pages one index may have.", default: .number("10000")),
        "on_status": SchemaNode.map(of: .enumeration(["skip", "fail"])).described(
            "What an error status means: {404: skip}."),
        "rate_limit": SchemaNode.object(
            [
                ("requests", SchemaNode.integer.described("Requests per interval.")),
                ("per", SchemaNode.string.described("The interval: 1s, 1m, ...")),
            ],
            required: ["requests", "per"]
        ).described("At most 'requests' requests start in any interval of 'per'."),
        "max_wait": SchemaNode.string.described("The longest a request waits for a budget.", default: .string("15m")),
    ]

    private static let http: [String: SchemaNode] = client.merging([
        "site": SchemaNode.string.described("The base URL, http or https."),
        "suffix": SchemaNode.string.described("Added to paths; \"\" for APIs without one.", default: .string(".json")),
        "paginate": SchemaNode.anyOf([.enumeration(["offset", "page", "link_header"]), .type("object")]).described(
            "offset, page, link_header, or {next_url}, {cursor}, {after_last}, {header}."),
        "size_param": SchemaNode.string.described("The name of the page-size parameter."),
        "method": SchemaNode.enumeration(["get", "post"]).described(
            "post for APIs queried with a JSON body.", default: .string("get")),
        "body": SchemaNode.anything.described("The JSON body of method: post requests."),
        "params": SchemaNode.map(of: .anything).described("Query parameters added to index requests."),
        "error_when": SchemaNode.type("object").described(
            "A 200 answer that is an error: {key: ok, equals: false, message: error}."),
        "format": SchemaNode.enumeration(["rails", "jsonapi"]).described(
            "jsonapi: JSON:API documents both ways, with their own defaults.", default: .string("rails")),
        "window": SchemaNode.object(
            ["from", "to", "start", "step"].map { ($0, SchemaNode.string.described("The date window's '\($0)'.")) }
        ).described("Each index fetched in date windows up to the run's start."),
    ]) { shared, _ in shared }

    private static let table: [String: [String: SchemaNode]] = [
        "source file": [
            "path": path.described(
                "The file, or a pattern such as data/{collection}.json; .jsonl files hold one record a line."),
            "skip_unchanged": skipUnchanged,
        ],
        "source stdin": [
            "entity": SchemaNode.string.described("The entity whose records standard input holds."),
            "format": SchemaNode.enumeration(["json", "singer"]).described(
                "json, or singer for a Singer message stream."),
            "skip_unchanged": skipUnchanged,
        ],
        "source exec": ["command": command, "env": env, "timeout": timeout],
        "stage exec": ["command": command, "env": env, "timeout": timeout],
        "transformer exec": ["exec": command, "env": env, "timeout": timeout],
        "source singer": [
            "command": command, "env": env, "timeout": timeout,
            "config": SchemaNode.map(of: .anything).described("The tap's --config, as YAML."),
            "catalog": SchemaNode.string.described("The tap's --catalog file."),
            "properties": SchemaNode.string.described("The tap's --properties file."),
        ],
        "source http": http,
        "source graphql": client.merging([
            "endpoint": SchemaNode.string.described("The URL queries are posted to.")
        ]) { shared, _ in shared },
        "store sqlite": [
            "path": path.described("The database file.", default: .string("rmap.sqlite")),
            "busy_timeout": SchemaNode.integer.described(
                "Seconds a write waits for another process's lock.", default: .number("5")),
        ],
        "store postgres": [
            "url": SchemaNode.string.described("postgres://user@host/database."),
            "sslmode": SchemaNode.enumeration(["disable", "allow", "prefer", "require", "verify-ca", "verify-full"])
                .described("libpq's sslmode."),
            "sslrootcert": path.described("The certificate authority file."),
            "sslcert": path.described("The client certificate file."),
            "sslkey": path.described("The client key file."),
        ],
        "store json": [
            "path": path.described("The JSON document's file."),
            "busy_timeout": SchemaNode.integer.described(
                "Seconds a write waits for another process's lock.", default: .number("5")),
        ],
    ]
}
