import Foundation
import RMap
import Testing

/// `rmap run` of part of a model: connections reach the objects stored by an earlier run
/// (foreign keys, to-many join links and key paths), and a reference is dangling only when
/// neither the run nor the store has it. Into SQLite and PostgreSQL.
@Suite("Connections reach stored objects")
struct StoredDestinationTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Person:
            attributes: { id: int, name: string }
          Project:
            attributes: { id: int, name: string, ownerId: int, memberIds: [int], leadId: int }
            relationships:
              owner: { to_one: Person, connect: { foreign_key: { ownerId: id } } }
              members: { to_many: Person, connect: { foreign_key: { memberIds: id } } }
              lead: { to_one: Person, connect: { key_path: leadId } }
        """
    static let people = #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}]"#
    static let projects = #"[{"id": 10, "name": "Loom", "owner_id": 1, "member_ids": [2, 3], "lead_id": 2}]"#
    /// Project 10 changed (its lead is now Cy), project 11 names an owner stored nowhere.
    static let changed = """
        [{"id": 10, "name": "Loom 2", "owner_id": 1, "member_ids": [2, 3], "lead_id": 3},
         {"id": 11, "name": "Kiln", "owner_id": 99, "member_ids": [1], "lead_id": 1}]
        """

    /// A workspace with the mapping and payloads, and the store URL of `engine` for it.
    private func workspace(_ engine: CLIStore) throws -> (RunWorkspace, store: String) {
        let workspace = try RunWorkspace([
            "work.yml": Self.mapping, "people.json": Self.people, "projects.json": Self.projects,
        ])
        return (workspace, try engine.url(for: workspace))
    }

    /// A reader of the store `engine` holds for `workspace`, with the workspace's mapping.
    private func reader(_ engine: CLIStore, _ workspace: RunWorkspace) throws -> StoreReader {
        let model = try MappingLoader(catalog: PluginRegistry.standard().catalog).load([workspace.path("work.yml")])
        let kind: StoreKind = engine == .sqlite ? .sqlite : .postgres
        return StoreReader(store: try kind.open(workspace.url), model: model)
    }

    /// The stored values of each object of `entity`, by its `id`.
    private func rows(_ entity: String, _ reader: StoreReader) async throws -> [Int64: [String: Value]] {
        var result: [Int64: [String: Value]] = [:]
        for object in try await reader.objects(of: entity).fetchAll() {
            guard case .int(let id)? = object.identity.first else { continue }
            result[id] = object.values
        }
        return result
    }

    @Test(
        "a run of projects only keeps the links to stored people and reports only what exists nowhere",
        arguments: CLIStore.allCases)
    func projectsOnlyRun(engine: CLIStore) async throws {
        let (workspace, store) = try workspace(engine)
        let first = try await workspace.rmap(["run", "work.yml", "--store", store, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let people = try await rows("Person", reader(engine, workspace))

        try workspace.write("projects.json", Self.changed)
        let partial = try await workspace.rmap(["run", "work.yml", "--only", "Project", "--store", store, "--json"])
        let report = try RunJSON(partial.stdout)
        #expect(partial.status == 3, "\(partial.stderr)")
        // Only project 11's owner 99 is nowhere: every reference to a stored person resolves.
        #expect(report.dangling.count == 1, "\(partial.stdout)")
        #expect(report.dangling.first?["entity"] as? String == "Project")
        let values = "\(report.dangling.first?["values"] ?? "")"
        #expect(values.contains("99"), "\(partial.stdout)")
        #expect(report.counts("Project")["updated"] == 1)
        #expect(report.counts("Project")["inserted"] == 1)
        #expect((report.counts("Person")["updated"] ?? 0) == 0)

        let stored = try reader(engine, workspace)
        // The stored people the run linked to are not rewritten.
        #expect(try await rows("Person", stored) == people)
        let ten = try #require(try await stored.object("Project", identity: [.int(10)]))
        let eleven = try #require(try await stored.object("Project", identity: [.int(11)]))
        #expect(StreamedRun.ids(try await ten.related("members")) == [2, 3])
        #expect(StreamedRun.ids(try await eleven.related("members")) == [1])
        // The key path reached stored person 3: the lead follows it.
        #expect(try await ten.relatedObject("lead")?.identity == [.int(3)])
        #expect(try await ten.relatedObject("owner")?.identity == [.int(1)])
        #expect(try await eleven.relatedObject("lead")?.identity == [.int(1)])
    }

    @Test("a full run of the model still reports a reference to a stored object the server no longer has")
    func completeFetchIsTheTruth() async throws {
        let (workspace, store) = try workspace(.sqlite)
        #expect(try await workspace.rmap(["run", "work.yml", "--store", store, "--quiet"]).status == 0)
        try workspace.write("people.json", #"[{"id": 1, "name": "Ann"}]"#)
        let full = try await workspace.rmap(["run", "work.yml", "--store", store, "--json"])
        let report = try RunJSON(full.stdout)
        // People were fetched completely: people 2 and 3 are gone from the server, whatever the store holds.
        #expect(full.status == 3, "\(full.stderr)")
        #expect(report.dangling.count == 2, "\(full.stdout)")
    }
}
