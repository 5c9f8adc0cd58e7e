import Foundation
import RMap
import RMapPostgres
import RMapSQLite
import Testing

/// A store filled by `rmap run`'s pipeline from files, read back with ``StoreReader``: people
/// (admins among them) with every attribute type, their nested projects, and every place a
/// relationship's links can live (docs/mapping.md, "Tables and columns"):
///
/// - `CRMProject.owner`: the project's own foreign-key column (`owner_id`);
/// - `CRMPerson.projects`: the children's foreign-key column, ordered (`owner_position`);
/// - `CRMProject.teamMembers`: an ordered join table (`projects_team_members`);
/// - `CRMPerson.memberOf`: the inverse of that join table;
/// - `CRMProject.manager`: attributes compared as connecting does (`person_id` with `id`);
/// - `CRMPerson.managed`: the inverse of those attributes.
///
/// And 1,234 notes, for queries of several pages.
final class ReadingFixture {
    static let mapping = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            source: { plugin: file, path: people.json }
            type_key: type
            attributes:
              id: int
              firstName: string
              lastName: string
        \(StoreFixtures.everyTypeAttributes)
            relationships:
              projects: { to_many: CRMProject, inverse: owner, nested: true, ordered: true }
              memberOf: { to_many: CRMProject, inverse: teamMembers }
              managed: { to_many: CRMProject, inverse: manager }
          CRMAdmin:
            extends: CRMPerson
            attributes:
              level: int
          CRMProject:
            attributes:
              id: int
              name: string
              personId: int
              teamMemberIds: [int]
            relationships:
              owner: { to_one: CRMPerson, inverse: projects }
              manager: { to_one: CRMPerson, inverse: managed, connect: { foreign_key: { personId: id } } }
              teamMembers:
                to_many: CRMPerson
                inverse: memberOf
                ordered: true
                connect: { foreign_key: { teamMemberIds: id } }
          CRMNote:
            source: { plugin: file, path: notes.json }
            attributes:
              id: int
              rank: int
              text: string
        """

    /// Ada (an admin) owns projects 12 then 10, Alan owns 11, Grace none; the teams and
    /// managers cross them.
    static let people = """
        [
          {"id": 1, "first_name": "Ada", "last_name": "Lovelace", "type": "Admin", "level": 3,
           "budget": "12.50", "admin": true, "born_on": "1815-12-10", "seen_at": "2024-03-01T10:00:00.037Z",
           "score": 0.5, "tags": ["a", "b \\"c\\""], "raw": {"k": [1, null]}, "homepage": "https://ada.example/x?y=1",
           "projects": [
             {"id": 12, "name": "Notes", "person_id": 2, "team_member_ids": [3, 1]},
             {"id": 10, "name": "Engine", "person_id": 2, "team_member_ids": [2]}
           ]},
          {"id": 2, "first_name": "Alan", "last_name": "Turing", "admin": false, "budget": "7",
           "projects": [{"id": 11, "name": "Bombe", "person_id": 1, "team_member_ids": [1, 2, 3]}]},
          {"id": 3, "first_name": "Grace", "last_name": "Hopper", "budget": null}
        ]
        """

    /// How many notes; their ranks repeat (`id % 7`), every tenth has none.
    static let noteCount = 1_234

    static var notes: String {
        let records = (1...noteCount).map { id in
            #"{"id": \#(id), "rank": \#(id % 10 == 0 ? "null" : String(id % 7)), "text": "note \#(id)"}"#
        }
        return "[" + records.joined(separator: ",\n") + "]"
    }

    let directory: URL
    let model: MappingModel
    let reader: StoreReader
    let kind: StoreKind

    /// The fixture's store of `kind`: a SQLite file, a PostgreSQL schema on the test server, a JSON
    /// document, or the directory's memory store.
    init(_ kind: StoreKind = .sqlite) async throws {
        self.kind = kind
        directory = try StoreFixtures.temporaryDirectory()
        try Data(Self.mapping.utf8).write(to: directory.appendingPathComponent("crm.yml"))
        try Data(Self.people.utf8).write(to: directory.appendingPathComponent("people.json"))
        try Data(Self.notes.utf8).write(to: directory.appendingPathComponent("notes.json"))
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.registerPostgres()
        model = try MappingLoader(catalog: registry.catalog).load([directory.appendingPathComponent("crm.yml").path])
        let store: PluginConfig
        switch kind.description {
        case "postgres":
            store = PluginConfig(plugin: "postgres", options: ["url": try PostgresSchemas.url(for: directory)])
        case "json":
            store = PluginConfig(plugin: "json", options: ["path": directory.appendingPathComponent("graph.json").path])
        case "memory":
            // The run's memory store is the one the kind opens for the directory.
            let directory = directory
            registry.register(store: "memory", options: []) { _ in try MemoryStores.shared.store(for: directory) }
            store = PluginConfig(plugin: "memory")
        default:
            store = PluginConfig(
                plugin: "sqlite", options: ["path": directory.appendingPathComponent("rmap.sqlite").path])
        }
        let result = try await Pipeline(model: model, registry: registry).run(RunOptions(store: store))
        #expect(result.report.rejectedCount == 0 && result.report.danglingCount == 0)
        reader = StoreReader(store: try kind.open(directory), model: model)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The identities of `objects`, as integers.
    static func ids(_ objects: [StoreObject]) -> [Int64] {
        objects.compactMap { if case .int(let id) = $0.identity.first { id } else { nil } }
    }
}
