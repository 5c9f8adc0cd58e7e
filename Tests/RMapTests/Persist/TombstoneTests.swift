import Foundation
import RMap
import Testing

/// `delete_when` end to end (MAPPING.md §8): a tombstone record deletes the stored object it
/// names, with its links; a nested child its parent no longer lists is deleted under
/// `missing_from_parent`; both are counted as deleted. Into SQLite and PostgreSQL.
@Suite("delete_when: tombstones")
struct TombstoneTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Person:
            delete_when: { deleted: true }
            attributes: { id: int, name: { type: string, required: true }, deleted: bool, projectIds: [int] }
            relationships:
              projects: { to_many: Project, connect: { foreign_key: { projectIds: id } } }
          Project:
            attributes: { id: int, name: string }
            relationships:
              tasks: { to_many: Task, nested: true, inverse: project }
          Task:
            source: false
            delete_when: { missing_from_parent: true }
            attributes: { id: int, title: string }
            relationships:
              project: { to_one: Project }
        """
    static let people = """
        [{"id": 1, "name": "Ann", "project_ids": [10]}, {"id": 2, "name": "Bo", "project_ids": [10]}]
        """
    static let projects = """
        [{"id": 10, "name": "Loom", "tasks": [{"id": 100, "title": "Warp"}, {"id": 101, "title": "Weft"}]},
         {"id": 11, "name": "Kiln", "tasks": [{"id": 110, "title": "Fire"}]}]
        """

    /// The identities of `entity`'s rows and of its bases.
    private func stored(_ entity: String, _ engine: CLIStore, _ workspace: RunWorkspace) throws -> [String] {
        let schema = try workspace.schema("work.yml")
        let objects = try engine.open(workspace).objects(schema: schema)
        let table = objects.layout.table(of: try #require(schema.type(named: entity)))
        return try objects.rows(of: entity).map { object in
            let values = try #require(object.values)
            #expect(object.base != nil, "the base of \(entity) is kept with its row")
            return table.identityValues(of: values).map(ValueText.display).joined(separator: "/")
        }.sorted()
    }

    @Test(
        "a tombstone deletes the stored object and its links; a child the parent dropped is deleted",
        arguments: CLIStore.allCases)
    func tombstones(engine: CLIStore) async throws {
        let workspace = try RunWorkspace([
            "work.yml": Self.mapping, "people.json": Self.people, "projects.json": Self.projects,
        ])
        let url = try engine.url(for: workspace)
        let first = try await workspace.rmap(["run", "work.yml", "--store", url, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")

        // Person 2 is a tombstone, person 7 one for an object never stored (not rejected for lacking its
        // required name); project 10 dropped task 101.
        try workspace.write(
            "people.json",
            #"[{"id": 1, "name": "Ann", "project_ids": [10]}, {"id": 2, "deleted": true}, {"id": 7, "deleted": true}]"#)
        try workspace.write(
            "projects.json",
            #"[{"id": 10, "name": "Loom", "tasks": [{"id": 100, "title": "Warp"}]}, {"id": 11, "name": "Kiln"}]"#)
        let second = try await workspace.rmap(["run", "work.yml", "--store", url, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        let report = try RunJSON(second.stdout)
        #expect(report.counts("Person")["deleted"] == 1)
        #expect(report.counts("Person")["orphans_deleted"] == 0)
        #expect(report.counts("Task")["deleted"] == 1)
        #expect(report.totals["deleted"] == 2)

        #expect(try stored("Person", engine, workspace) == ["1"])
        // Project 11's payload carried no `tasks` key: its task stays.
        #expect(try stored("Task", engine, workspace) == ["100", "110"])
        let objects = try engine.open(workspace).objects(schema: workspace.schema("work.yml"))
        let links = try objects.links(of: "Person", "projects")
        #expect(links[IdentityKey([.int(2)])] == nil)
        #expect(links[IdentityKey([.int(1)])] == [IdentityKey([.int(10)])])

        // The table names the column.
        let table = try await workspace.rmap(["run", "work.yml", "--store", url])
        #expect(table.stdout.contains("  rejected  dangling  deleted  unmapped\n"), "\(table.stdout)")
    }

    @Test("delete_when errors name the file, line and column")
    func validation() {
        let unknown = LoaderHarness.issues(
            """
            rmap: 1
            entities:
              Person:
                delete_when: { delted: true }
                attributes: { id: int, deleted: bool }
            """)
        #expect(unknown.count == 1)
        #expect(unknown.first?.hasPrefix("mappings/crm.yml:4:20: ") == true, "\(unknown)")
        #expect(unknown.first?.contains("delted") == true, "\(unknown)")
        #expect(
            LoaderHarness.issues(
                """
                rmap: 1
                entities:
                  Person:
                    delete_when: { missing_from_parent: true }
                    attributes: { id: int }
                """) == [
                    "mappings/crm.yml:4:20: 'missing_from_parent' of entity 'Person' needs a parent: "
                        + "no nested 'replace' to-many with an inverse holds 'Person'"
                ])
        #expect(
            LoaderHarness.issues(
                """
                rmap: 1
                entities:
                  Person:
                    delete_when: deleted
                    attributes: { id: int }
                """) == [
                    "mappings/crm.yml:4:18: 'delete_when' of entity 'Person' must be a mapping of attributes to conditions"
                ])
    }
}
