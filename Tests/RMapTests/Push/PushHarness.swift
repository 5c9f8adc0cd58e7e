import Foundation
import RMap
import RMapHTTP
import RMapPostgres
import RMapSQLite
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shared Rails fixture app as the push tests use it: reset, request log, changes made by others.
enum PushServer {
    /// `POST /_reset`: the seed again, an empty request log.
    static func reset(_ site: URL) async throws {
        var request = URLRequest(url: site.appendingPathComponent("_reset"))
        request.httpMethod = "POST"
        _ = try await RepeatableRequest.data(for: request)
    }

    /// One logged request.
    struct Logged: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var body: String
        var status: Int
        /// The request's `Idempotency-Key`, when it had one.
        var idempotencyKey: String? = nil
        /// True when the app repeated a kept answer for the key instead of running the action.
        var replayed = false
        var description: String { "\(method) \(path) \(body) -> \(status)" }
        /// `METHOD path body`, as `rmap diff` prints a request.
        var line: String { body.isEmpty ? "\(method) \(path)" : "\(method) \(path) \(body)" }
    }

    /// The request log, oldest first.
    static func log(_ site: URL) async throws -> [Logged] {
        let (data, _) = try await RepeatableRequest.data(from: site.appendingPathComponent("_requests"))
        let log = try JSONReader.parse(data, origin: "_requests")
        return (log.array ?? []).compactMap(\.object).map { entry in
            var status = 0
            if case .number(let text)? = entry["status"] { status = Int(text) ?? 0 }
            return Logged(
                method: entry["method"]?.string ?? "", path: entry["path"]?.string ?? "",
                body: entry["body"]?.string ?? "", status: status, idempotencyKey: entry["idempotency_key"]?.string,
                replayed: entry["replayed"] == .bool(true))
        }
    }

    /// Sends a request outside rmap (a change made on the server by someone else), then empties the log.
    static func serverSide(_ site: URL, _ method: String, _ path: String, _ body: String) async throws {
        try await send(site, method, path, body)
        try await clearLog(site)
    }

    /// `DELETE /_requests`: empties the request log.
    static func clearLog(_ site: URL) async throws {
        var clear = URLRequest(url: site.appendingPathComponent("_requests"))
        clear.httpMethod = "DELETE"
        _ = try await RepeatableRequest.data(for: clear)
    }
}

/// A temporary store (SQLite unless told otherwise) filled from the Rails app, with the sync API
/// and a pusher over it.
final class PushHarness {
    let site: URL
    let model: MappingModel
    /// The SQLite file (`sql` and `value` read it); with another store kind, its directory.
    let path: String
    /// The PostgreSQL store's URL, when the store is PostgreSQL (`sql` runs there then).
    let postgresURL: String?
    let store: any Store
    let sync: SyncStore
    private let directory: URL
    private let kind: StoreKind?
    private let busyTimeout: Duration

    /// The app's three models; `project` adds lines to the Project entity (e.g. `push: { method: patch }`).
    static func mapping(site: URL, project: String = "", person: String = "") -> String {
        """
        rmap: 1
        source: { plugin: http, site: \(site.absoluteString), retries: 0 }
        entities:
          Person:
            \(person)
            attributes:
              id: int
              firstName: string
              lastName: string
              email: string
              bornOn: date
              admin: bool
              updatedAt: { type: datetime, readonly: true }
          Project:
            \(project)
            attributes:
              id: int
              name: string
              budget: decimal
              personId: int
              startsOn: date
              archived: bool
              updatedAt: { type: datetime, readonly: true }
            relationships:
              owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
          Task:
            attributes:
              id: int
              title: string
              projectId: int
              done: bool
              dueAt: datetime
              estimate: decimal
              updatedAt: { type: datetime, readonly: true }
            relationships:
              project: { to_one: Project, connect: { foreign_key: { projectId: id } } }
        """
    }

    /// The stores a harness tests pushes on: its own SQLite file (`nil`), then PostgreSQL once it
    /// has an SQL engine (``StoreKind/engines``); the harness's `rmap` processes cannot share a
    /// memory store.
    static let stores: [StoreKind?] = [nil] + StoreKind.all.filter { $0.description == "postgres" }.map { $0 }

    /// Resets the app and fills a new store from it: SQLite (waiting `busyTimeout` for locks) unless `kind`
    /// names another store.
    init(
        project: String = "", person: String = "", kind: StoreKind? = nil, busyTimeout: Duration = .seconds(5)
    ) async throws {
        site = try TestServers.rails()
        try await PushServer.reset(site)
        let registry = PluginRegistry()
        registry.registerHTTP()
        model = try MappingLoader(catalog: registry.catalog)
            .load(documents: [("push.yml", Self.mapping(site: site, project: project, person: person))])
        directory = try StoreFixtures.temporaryDirectory()
        self.kind = kind
        self.busyTimeout = busyTimeout
        path = directory.appendingPathComponent("push.sqlite").path
        let postgres = kind?.description == StoreKind.postgres.description
        postgresURL = postgres ? try PostgresSchemas.url(for: directory) : nil
        store = try kind?.open(directory) ?? SQLiteStore(path: path, busyTimeout: busyTimeout)
        sync = SyncStore(store: store, model: model)
        try await fetch()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Fetches every record from the app as `rmap run` does (the pipeline, its `http` source) into
    /// the store, opened again as a run opens it (a re-fetch merges three-way); the log keeps none
    /// of its requests.
    func fetch() async throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let (kind, directory, path, busyTimeout) = (kind, directory, path, busyTimeout)
        registry.register(store: "harness", options: []) { _ in
            try kind?.open(directory) ?? SQLiteStore(path: path, busyTimeout: busyTimeout)
        }
        _ = try await Pipeline(model: model, registry: registry).run(RunOptions(store: PluginConfig(plugin: "harness")))
        try await PushServer.clearLog(site)
    }

    /// Runs SQL on the store (SQLite, or PostgreSQL with ``postgresURL``), as a user editing it would.
    func sql(_ statement: String) throws {
        if let postgresURL {
            try PostgresConnection(url: postgresURL).execute(statement)
        } else {
            try SQLiteConnection(path: path).execute(statement)
        }
    }

    /// The store as `--store` names it: `sqlite:PATH`, or the PostgreSQL URL.
    var storeArgument: String { postgresURL ?? "sqlite:\(path)" }

    /// `rmap command` (the binary ``CLIRunner`` finds) with the app's mapping and `--store` naming
    /// this store, then `arguments`.
    func rmap(_ command: String, _ arguments: [String] = []) async throws -> CLIResult {
        try await Self.rmap(command, site: site, store: storeArgument, arguments)
    }

    /// `rmap command` with the mapping of the app at `site` and `--store store`, then `arguments`.
    static func rmap(_ command: String, site: URL, store: String, _ arguments: [String] = []) async throws -> CLIResult
    {
        let directory = try TemporaryDirectory()
        try directory.write("crm.yml", mapping(site: site))
        return try await CLIRunner.run([command, "crm.yml", "--store", store] + arguments, in: directory.url)
    }

    /// The first value of the first row of a query on the store.
    func value(_ query: String) throws -> SQLiteValue? {
        try SQLiteConnection(path: path).query(query).first?.first
    }

    /// Pushes with a fresh pusher (`transport` for fault injection).
    func push(jobs: Int = 4, transport: (any HTTPTransport)? = nil) async throws -> PushReport {
        try await Pusher(model: model, jobs: jobs, transport: transport).push(sync)
    }

    /// The records of one of the app's collections, as the server holds them now.
    func records(_ collection: String) async throws -> [JSONObject] {
        let (data, _) = try await RepeatableRequest.data(from: site.appendingPathComponent("\(collection).json"))
        return (try JSONReader.parse(data, origin: collection).array ?? []).compactMap(\.object)
    }

    /// The request log since the last reset, as `METHOD path body` lines.
    func log() async throws -> [PushServer.Logged] {
        try await PushServer.log(site)
    }
}
