import Foundation
import RMapPostgres
import RMapSQLite
import Testing

@testable import RMap

/// A file-sourced model and a temporary SQLite store (or a PostgreSQL schema on the test server)
/// filled with a few objects, for plan and CLI tests.
final class SyncFixture {
    /// The stores the sync API runs on: SQLite (`false`) and PostgreSQL (`true`).
    static let stores = [false, true]

    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        naming: { root: ROOT }
        entities:
          Person:
            attributes:
              id: int
              firstName: string
              city: { key: address.city }
              status: { type: string, map: { A: active, I: inactive } }
              seenAt: datetime
              notes: { type: string, readonly: true }
          Project:
            attributes:
              id: int
              name: string
              budget: decimal
              personId: int
            relationships:
              owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
          Label:
            identity: name
            attributes:
              name: string
              color: string
        """

    let directory: URL
    let model: MappingModel
    let storePath: String
    /// The store's URL when it is PostgreSQL (`postgres: true`); else the store is SQLite at ``storePath``.
    let postgresURL: String?
    let sync: SyncStore
    private let store: any Store

    /// People 1 and 2, projects 10 (person 1) and 11 (person 2), label `bug`; `root` is the naming root style.
    init(root: String = "wrapped", postgres: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = Self.mapping.replacingOccurrences(of: "ROOT", with: root)
        try Data(text.utf8).write(to: directory.appendingPathComponent("crm.yml"))
        model = try MappingLoader(catalog: PluginRegistry.standard().catalog).load([
            directory.appendingPathComponent("crm.yml").path
        ])
        storePath = directory.appendingPathComponent("crm.sqlite").path
        postgresURL = postgres ? try PostgresSchemas.url(for: directory) : nil
        store = try postgresURL.map { try PostgresStore(url: $0) } ?? SQLiteStore(path: storePath)
        sync = SyncStore(store: store, model: model)
        let seen = try #require(ISO8601Text.timestamp("2024-03-01T10:00:00.037Z"))
        try fetched([
            (
                "Person",
                [
                    "id": .int(1), "firstName": .string("Ada"), "city": .string("London"),
                    "status": .string("active"), "seenAt": .datetime(seen), "notes": .string("n"),
                ]
            ),
            ("Person", ["id": .int(2), "firstName": .string("Alan"), "status": .string("inactive")]),
            (
                "Project",
                [
                    "id": .int(10), "name": .string("Engine"),
                    "budget": .decimal(try #require(DecimalNumber("12.50"))), "personId": .int(1),
                ]
            ),
            ("Project", ["id": .int(11), "name": .string("Bombe"), "personId": .int(2)]),
            ("Label", ["name": .string("bug"), "color": .string("red")]),
        ])
    }

    /// Writes these objects (entity, attribute values) as a run that fetched them would (``ServerRows``).
    func fetched(_ objects: [(entity: String, values: [String: Value])]) throws {
        try ServerRows.write(objects, model: model, into: store)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// An `UPDATE`, a `DELETE` and an `INSERT` as another client would run them (SQL for either engine).
    static let localEdits = [
        "UPDATE people SET first_name = 'Augusta' WHERE id = 1",
        "DELETE FROM projects WHERE id = 11",
        "INSERT INTO labels (name, color) VALUES ('feature', 'green')",
    ]

    /// The plan's lines after ``localEdits``.
    static let localEditsPlan = [
        #"POST /labels.json {"label":{"name":"feature","color":"green"}}"#,
        #"PUT /people/1.json {"person":{"first_name":"Augusta"}}"#,
        "DELETE /projects/11.json",
        "3 requests: 1 POST, 1 PUT, 1 DELETE",
    ]

    /// Runs SQL on the store.
    func sql(_ statement: String) throws {
        if let postgresURL {
            try PostgresConnection(url: postgresURL).execute(statement)
        } else {
            try SQLiteConnection(path: storePath).execute(statement)
        }
    }

    /// The plan's lines (requests, then the summary).
    func lines() throws -> [String] {
        try sync.plan().text.split(separator: "\n").map(String.init)
    }
}
