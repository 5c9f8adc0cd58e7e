import Foundation
import RMapPostgres
import RMapSQLite

@testable import RMap

/// Models, payloads and stores shared by the persist, SQLite and PostgreSQL tests.
enum StoreFixtures {
    /// People (with an STI sub-entity), their nested projects and project team members.
    static let crm = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            type_key: type
            attributes:
              id: int
              firstName: string
              city: { key: address.city }
        \(everyTypeAttributes)
            relationships:
              projects: { to_many: CRMProject, inverse: owner, nested: true }
          CRMAdmin:
            extends: CRMPerson
            attributes:
              level: int
          CRMProject:
            on_conflict: ${POLICY:-fail}
            orphans: delete
            attributes:
              id: int
              name: string
              personId: int
              teamMemberIds: [int]
            relationships:
              owner: { to_one: CRMPerson }
              manager: { to_one: CRMPerson, connect: { foreign_key: { personId: id } } }
              teamMembers: { to_many: CRMPerson, connect: { foreign_key: { teamMemberIds: id } } }
        """

    /// Attributes of every type but `int` and `string` (a person's, in ``crm``'s indentation): what
    /// the stores must keep and read back as given.
    static let everyTypeAttributes = """
              budget: decimal
              admin: bool
              bornOn: date
              seenAt: datetime
              score: double
              tags: [string]
              raw: json
              homepage: url
        """

    static func model(_ yaml: String = crm, environment: [String: String] = [:]) throws -> MappingModel {
        let catalog = PluginCatalog(
            sources: ["file": ["path"]], stores: ["sqlite": ["path"], "memory": [], "json": ["path"]], transformers: [])
        return try MappingLoader(environment: environment, catalog: catalog).load(documents: [("test.yml", yaml)])
    }

    static func schema(_ yaml: String = crm, policy: String = "fail") throws -> GraphSchema {
        GraphSchema(model: try model(yaml, environment: ["POLICY": policy]))
    }

    /// The small CRM as a run's payload of people: Ann (admin) owning project 10 (nested)
    /// managed by Bob, team Ann and Bob; then Bob.
    static let crmPeople = """
        [{"id": 1, "type": "Admin", "first_name": "Ann", "level": 3,
          "projects": [{"id": 10, "name": "Apollo", "person_id": 2, "team_member_ids": [1, 2]}]},
         {"id": 2, "first_name": "Bob"}]
        """

    /// ``crmPeople`` with Ann's first name `ann` and project 10's name `project`.
    static func crmPeople(ann: String = "Ann", project: String = "Apollo") -> String {
        crmPeople.replacingOccurrences(of: #""first_name": "Ann""#, with: #""first_name": "\#(ann)""#)
            .replacingOccurrences(of: #""name": "Apollo""#, with: #""name": "\#(project)""#)
    }

    /// Runs ``crmPeople(ann:project:)`` through ``Pipeline`` into the store of `kind` in `directory`:
    /// the small CRM: Ann (admin) owning project 10 managed by Bob, team Ann and Bob.
    @discardableResult
    static func runCRM(
        _ kind: StoreKind, _ directory: URL, ann: String = "Ann", project: String = "Apollo", yaml: String = crm,
        options: RunOptions = RunOptions()
    ) async throws -> RunReport {
        try await MappedRun.run(
            yaml, [("CRMPerson", crmPeople(ann: ann, project: project))], kind: kind, directory: directory,
            options: options)
    }

    /// An admin with a value of every type, including the values stores most easily get wrong:
    /// quotes, backslashes, tabs and newlines, an empty string, `false`, a decimal's trailing zero,
    /// an integer beyond a double's precision, a millisecond date-time and nested JSON.
    static let everyType: [String: Value] = [
        "id": .int(7),
        "firstName": .string("Zoë \"q\" \\ tab\there\nline, 東京 🚀"),
        "city": .string(""),
        "budget": .decimal(DecimalNumber("1234.50")!),
        "admin": .bool(false),
        "bornOn": .date(LocalDate(year: 1985, month: 12, day: 10)!),
        "seenAt": .datetime(Timestamp(milliseconds: 1_700_000_000_123)),
        "score": .double(0.1),
        "tags": .array([.string("a"), .string("b \"c\" \\"), .string("")]),
        "raw": .json(
            .object(JSONObject([("a", .number("1.50")), ("b", .array([.bool(true), .null, .string("x")]))]))),
        "homepage": .string("https://example.com/a?b=1&c=%20"),
        "level": .int(-9_007_199_254_740_993),
    ]

    /// ``everyType`` as the `people` table's columns hold it.
    static let everyTypeColumns: [String: Value] = [
        "id": everyType["id"]!, "first_name": everyType["firstName"]!, "address_city": everyType["city"]!,
        "budget": everyType["budget"]!, "admin": everyType["admin"]!, "born_on": everyType["bornOn"]!,
        "seen_at": everyType["seenAt"]!, "score": everyType["score"]!, "tags": everyType["tags"]!,
        "raw": everyType["raw"]!, "homepage": everyType["homepage"]!, "level": everyType["level"]!,
        "type": .string("Admin"),
    ]

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A store under test, re-openable from its file (like a later run).
struct StoreKind: CustomStringConvertible, Sendable {
    let description: String
    let open: @Sendable (URL) throws -> any Store

    static let sqlite = StoreKind(description: "sqlite") {
        try SQLiteStore(path: $0.appendingPathComponent("rmap.sqlite").path)
    }
    static let json = StoreKind(description: "json") {
        try JSONStore(path: $0.appendingPathComponent("graph.json").path)
    }
    /// One memory store per directory, so "re-opening" returns the same store.
    static let memory = StoreKind(description: "memory") { try MemoryStores.shared.store(for: $0) }

    /// One PostgreSQL schema per directory, on the test server.
    static let postgres = StoreKind(description: "postgres") { try PostgresStore(url: PostgresSchemas.url(for: $0)) }

    static let all: [StoreKind] = [.sqlite, .memory, .json, .postgres]

    /// Runs SQL on `store` as local edits, in one transaction: the store's base capture keeps the
    /// server state of what they change, as for another client's SQL. The tables of `model` are
    /// loaded first (``Store/load(_:)``: a JSON store's document).
    static func editLocally(_ store: any Store, model: MappingModel, _ statements: [String]) throws {
        try store.load(StoreLayout(schema: GraphSchema(model: model)))
        let engine = try store.engine()
        try engine.transaction {
            try engine.setLocalEdits(true)
            for statement in statements { try engine.execute(statement) }
        }
    }
}

/// Fresh PostgreSQL schemas on the test server, so that tests run in parallel
/// without seeing each other's tables.
enum PostgresSchemas {
    private static let created = Locked(Set<String>())

    /// The schema of a test directory: `rmap_` and the directory's name, created on first use.
    static func name(for directory: URL) -> String {
        let stem = directory.lastPathComponent.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return "rmap_" + String(String(stem).suffix(50))
    }

    /// A URL of the test server whose connections use the directory's schema (created on first use).
    static func url(for directory: URL) throws -> String {
        let schema = name(for: directory)
        let server = try PostgresServer.url()
        if created.withLock({ $0.insert(schema).inserted }) {
            try PostgresConnection(url: server).execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
        }
        return url(server, schema: schema)
    }

    /// `server` with `search_path` set to `schema`.
    static func url(_ server: String, schema: String) -> String {
        server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// The indexes of a table of the connection's schema, as `CREATE [UNIQUE] INDEX name (columns)`, sorted.
    static func indexes(_ connection: PostgresConnection, _ table: String) throws -> [String] {
        try connection.query(
            "SELECT regexp_replace(indexdef, ' ON \\S+ USING btree', '') FROM pg_indexes "
                + "WHERE schemaname = current_schema() AND tablename = $1 ORDER BY 1", [table]
        ).rows.map { $0[0]! }
    }

    /// Every table of the connection's schema with its rows as text, sorted: what a failed run must not change.
    static func snapshot(_ connection: PostgresConnection) throws -> [String: [String]] {
        let tables = try connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        var contents: [String: [String]] = [:]
        for case let name? in tables.rows.map(\.[0]) {
            let table = PostgresConnection.quoteIdentifier(name)
            contents[name] = try connection.query("SELECT t::text FROM \(table) AS t ORDER BY 1").rows.map {
                $0[0] ?? ""
            }
        }
        return contents
    }
}

/// The memory stores of the tests, by directory.
final class MemoryStores: @unchecked Sendable {
    static let shared = MemoryStores()
    private let lock = NSLock()
    private var stores: [URL: MemoryStore] = [:]

    func store(for directory: URL) throws -> MemoryStore {
        try lock.withLock {
            if let store = stores[directory] { return store }
            let store = try MemoryStore()
            stores[directory] = store
            return store
        }
    }
}

extension Store {
    /// The stored objects of an entity, by identity text, as column -> value.
    func contents(_ schema: GraphSchema, _ entity: String) throws -> [String: [String: Value]] {
        let objects = objects(schema: schema)
        let table = objects.layout.table(of: schema.type(named: entity)!)
        var result: [String: [String: Value]] = [:]
        for object in try objects.rows(of: entity) {
            guard let values = object.values ?? object.base else { continue }
            let key = table.identity.map { ValueText.display(values[$0]) }.joined(separator: "/")
            result[key] = Dictionary(uniqueKeysWithValues: zip(table.columns.map(\.name), values))
        }
        return result
    }

    /// Changes one column of a stored row locally (the base stays).
    func edit(_ schema: GraphSchema, _ entity: String, id: Int64, _ column: String, _ value: Value) throws {
        let objects = objects(schema: schema)
        let table = objects.layout.table(of: schema.type(named: entity)!)
        let object = try objects.rows(of: entity).first { $0.values?[table.identity[0]] == .int(id) }!
        var values = object.values!
        values[table.columnIndex(column)!] = value
        try objects.update(entity, reference: object.reference!, values: values)
    }
}
