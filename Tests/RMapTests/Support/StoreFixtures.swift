import Foundation
@testable import RMap
import RMapSQLite

/// Models, graphs and stores shared by the persist and SQLite tests.
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
              budget: decimal
              admin: bool
              bornOn: date
              seenAt: datetime
              score: double
              tags: [string]
              raw: json
              homepage: url
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

    static func model(_ yaml: String = crm, environment: [String: String] = [:]) throws -> MappingModel {
        let catalog = PluginCatalog(
            sources: ["file": ["path"]], stores: ["sqlite": ["path"], "memory": [], "json": ["path"]], transformers: [])
        return try MappingLoader(environment: environment, catalog: catalog).load(documents: [("test.yml", yaml)])
    }

    static func schema(_ yaml: String = crm, policy: String = "fail") throws -> GraphSchema {
        GraphSchema(model: try model(yaml, environment: ["POLICY": policy]))
    }

    /// Adds (or updates) an object with these attribute values.
    @discardableResult
    static func add(_ graph: ObjectGraph, _ entity: String, _ values: [String: Value]) -> GraphObject {
        let type = graph.schema.type(named: entity)!
        let identity = IdentityKey(type.identityIndices.map { values[type.mapping.attributes[$0].name] ?? .null })
        let (object, _) = graph.upsert(type, identity: identity, origin: "test")
        for (name, value) in values { object.set(name, to: value) }
        graph.reindex(object)
        return object
    }

    /// Sets a relationship (and nothing else: inverses are the caller's).
    static func link(_ source: GraphObject, _ relationship: String, _ destinations: [GraphObject]) {
        source.related[source.type.relationshipIndex(relationship)!] = destinations
    }

    /// The small CRM graph: Ann (admin) owning project 10 managed by Bob, team Ann and Bob.
    static func crmGraph(_ schema: GraphSchema, annName: Value = .string("Ann")) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        let ann = add(graph, "CRMAdmin", ["id": .int(1), "firstName": annName, "level": .int(3)])
        let bob = add(graph, "CRMPerson", ["id": .int(2), "firstName": .string("Bob")])
        let project = add(
            graph, "CRMProject",
            ["id": .int(10), "name": .string("Apollo"), "personId": .int(2), "teamMemberIds": .array([.int(1), .int(2)])])
        link(ann, "projects", [project])
        link(project, "owner", [ann])
        link(project, "manager", [bob])
        link(project, "teamMembers", [ann, bob])
        return graph
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A store under test, re-openable from its file (like a later run).
struct StoreKind: CustomStringConvertible, Sendable {
    let description: String
    let open: @Sendable (URL) throws -> any BackendStore

    static let sqlite = StoreKind(description: "sqlite") { try SQLiteStore(path: $0.appendingPathComponent("rmap.sqlite").path) }
    static let json = StoreKind(description: "json") { try JSONStore(path: $0.appendingPathComponent("graph.json").path) }
    /// One memory store per directory, so "re-opening" returns the same store.
    static let memory = StoreKind(description: "memory") { MemoryStores.shared.store(for: $0) }

    static let all: [StoreKind] = [.sqlite, .memory, .json]
}

/// The memory stores of the tests, by directory.
final class MemoryStores: @unchecked Sendable {
    static let shared = MemoryStores()
    private let lock = NSLock()
    private var stores: [URL: MemoryStore] = [:]

    func store(for directory: URL) -> MemoryStore {
        lock.withLock {
            if let store = stores[directory] { return store }
            let store = MemoryStore()
            stores[directory] = store
            return store
        }
    }
}

extension BackendStore {
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
