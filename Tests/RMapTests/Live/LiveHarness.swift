import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live session over a new SQLite store and the reset Rails test app, with the app's request log.
final class LiveHarness {
    let site: URL
    let model: MappingModel
    let session: Session
    /// The SQLite file behind the session.
    let path: String
    private let directory: URL

    /// The CRM of `examples/rails/crm.yml`: people (with admins), their projects by nested route, tasks by `params`.
    static func mapping(site: URL) -> String {
        """
        rmap: 1
        source: { plugin: http, site: \(site.absoluteString), retries: 0, page_size: 10 }
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            type_key: type
            attributes:
              id: int
              firstName: string
              lastName: string
              email: string
              admin: bool
              updatedAt: { type: datetime, readonly: true }
            relationships:
              projects: { to_many: CRMProject, inverse: owner }
          CRMAdmin:
            extends: CRMPerson
          CRMProject:
            nested_path: people/{personId}/projects
            attributes:
              id: int
              name: string
              personId: int
            relationships:
              owner: { to_one: CRMPerson, connect: { foreign_key: { personId: id } } }
              tasks: { to_many: CRMTask, inverse: project }
          CRMTask:
            source: { plugin: http, site: \(site.absoluteString), retries: 0, params: { project_id: "{id}" } }
            attributes:
              id: int
              title: string
              projectId: int
            relationships:
              project: { to_one: CRMProject, connect: { foreign_key: { projectId: id } } }
        """
    }

    init(cacheLimit: Int = 1_000, pushTransport: (any HTTPTransport)? = nil) async throws {
        site = try TestServers.rails()
        try await PushServer.reset(site)
        let registry = PluginRegistry()
        registry.registerHTTP()
        model = try MappingLoader(catalog: registry.catalog).load(documents: [("crm.yml", Self.mapping(site: site))])
        directory = try StoreFixtures.temporaryDirectory()
        path = directory.appendingPathComponent("live.sqlite").path
        session = Session(
            model: model, store: try SQLiteStore(path: path), cacheLimit: cacheLimit, registry: registry,
            pushTransport: pushTransport)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The requests the app logged since the last reset or `clearLog`, as `METHOD path body` lines.
    func log() async throws -> [String] {
        try await PushServer.log(site).map(\.line)
    }

    func clearLog() async throws {
        try await PushServer.clearLog(site)
    }

    /// A record as the server holds it now (`GET` outside the session, then the log is emptied).
    func record(_ path: String) async throws -> JSONObject {
        let (data, _) = try await RepeatableRequest.data(from: site.appendingPathComponent(path))
        try await clearLog()
        return try #require(try JSONReader.parse(data, origin: path).object)
    }

    /// `POST /_bulk_tasks?count=N`: N more tasks on the server, in one statement.
    func addTasks(_ count: Int) async throws {
        var request = URLRequest(url: try #require(URL(string: "\(site.absoluteString)/_bulk_tasks?count=\(count)")))
        request.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: request)
    }

    /// The first value of the first row of a query on the session's store.
    func value(_ query: String) throws -> SQLiteValue? {
        try SQLiteConnection(path: path).query(query).first?.first
    }

    /// The store's table of an entity.
    func table(_ entity: String) throws -> String {
        let schema = GraphSchema(model: model)
        return StoreLayout(schema: schema).table(of: try #require(schema.type(named: entity))).name
    }
}
