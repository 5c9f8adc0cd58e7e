import Foundation
import Testing

@testable import RMap

/// A nested-only object (`source: false`) that its parent's payload replaces is deleted (issue 33,
/// item 8: RestKit's replace assignment policy deletes the value it replaces), unless the run or
/// another object still holds it; translated from RKObjectMappingNextGenTest and run with the
/// `rmap` binary into SQLite and PostgreSQL.
@Suite("Replaced nested-only objects are deleted")
struct ReplacedNestedObjectTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Human:
            identity: name
            attributes: { name: string }
            collection: humans
            relationships:
              favoriteCat: { to_one: Cat, nested: true, missing: nullify }
              cats: { to_many: Cat, nested: true }
              friends: { to_many: Cat, nested: true, assignment: union }
              tasks: { to_many: Task, nested: true, inverse: owner }
              toys: { to_many: Toy, nested: true }
          Cat:
            source: false
            identity: name
            attributes: { name: string }
          Task:
            source: false
            attributes: { id: int, title: string }
            relationships:
              owner: { to_one: Human }
          Toy:
            identity: name
            attributes: { name: string }
        """

    /// The identities of `entity`'s stored objects, sorted.
    static func stored(_ entity: String, _ engine: CLIStore, _ workspace: RunWorkspace) throws -> [String] {
        let schema = try workspace.schema("map.yml")
        let table = StoreLayout(schema: schema).table(of: try #require(schema.type(named: entity)))
        return try engine.open(workspace).objects(schema: schema).rows(of: entity).compactMap { object in
            object.values.map { table.identityValues(of: $0).map(ValueText.display).joined(separator: "/") }
        }.sorted()
    }

    /// The value of column `column` of the stored object of `entity` identified `identity`.
    static func column(
        _ column: String, of entity: String, _ identity: String, _ engine: CLIStore, _ workspace: RunWorkspace
    ) throws -> Value? {
        let schema = try workspace.schema("map.yml")
        let table = StoreLayout(schema: schema).table(of: try #require(schema.type(named: entity)))
        let position = try #require(table.columnIndex(column))
        return try engine.open(workspace).objects(schema: schema).rows(of: entity).compactMap(\.values).first {
            table.identityValues(of: $0).map(ValueText.display).joined(separator: "/") == identity
        }?[position]
    }

    /// A workspace whose store holds `humans`, and the store's URL.
    private func start(_ engine: CLIStore, _ humans: String) async throws -> (RunWorkspace, String) {
        let workspace = try RunWorkspace(["map.yml": Self.mapping, "toys.json": "[]"])
        let url = try engine.url(for: workspace)
        _ = try await run(humans, workspace, url)
        return (workspace, url)
    }

    /// `rmap run map.yml --json` into the store at `url`, expecting success: its report.
    static func run(_ workspace: RunWorkspace, _ url: String) async throws -> RunJSON {
        let result = try await workspace.rmap(["run", "map.yml", "--store", url, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try RunJSON(result.stdout)
    }

    private func run(_ humans: String, _ workspace: RunWorkspace, _ url: String) async throws -> RunJSON {
        try workspace.write("humans.json", humans)
        return try await Self.run(workspace, url)
    }

    @Test(
        "testReplacmentPolicyForToOneCoreDataRelationshipDeletesExistingValues: the cat a favorite replaces is deleted",
        arguments: CLIStore.allCases)
    func toOneReplaced(engine: CLIStore) async throws {
        let (workspace, url) = try await start(engine, #"[{"name": "Blake", "favorite_cat": {"name": "Lola"}}]"#)
        #expect(try Self.stored("Cat", engine, workspace) == ["Lola"])

        let report = try await run(#"[{"name": "Blake", "favorite_cat": {"name": "Roy"}}]"#, workspace, url)
        #expect(try Self.stored("Cat", engine, workspace) == ["Roy"])
        #expect(try Self.column("favorite_cat_name", of: "Human", "Blake", engine, workspace) == .string("Roy"))
        #expect(report.counts("Cat")["deleted"] == 1)
        #expect(report.counts("Cat")["inserted"] == 1)
    }

    @Test(
        "testReplacmentPolicyForToOneCoreDataRelationshipDeletesExistingValuesAndRespectsAssignsNilForMissingRelationships",
        arguments: CLIStore.allCases)
    func toOneNullified(engine: CLIStore) async throws {
        let (workspace, url) = try await start(engine, #"[{"name": "Blake", "favorite_cat": {"name": "Lola"}}]"#)

        // `missing: nullify`: a record without the key replaces the favorite with nothing.
        let report = try await run(#"[{"name": "Blake"}]"#, workspace, url)
        #expect(try Self.column("favorite_cat_name", of: "Human", "Blake", engine, workspace) == .null)
        #expect(try Self.stored("Cat", engine, workspace) == [])
        #expect(report.counts("Cat")["deleted"] == 1)
    }

    @Test(
        "testReplacmentPolicyForToManyCoreDataRelationshipDeletesExistingValues: the cats a list drops are deleted",
        arguments: CLIStore.allCases)
    func toManyReplaced(engine: CLIStore) async throws {
        let (workspace, url) = try await start(
            engine,
            #"[{"name": "Blake", "cats": [{"name": "Lola"}, {"name": "Tom"}], "tasks": [{"id": 1}, {"id": 2}]}]"#)
        #expect(try Self.stored("Cat", engine, workspace) == ["Lola", "Tom"])

        // The join table's cats and the tasks that hold their owner in a column alike.
        let report = try await run(
            #"[{"name": "Blake", "cats": [{"name": "Roy"}], "tasks": [{"id": 2}]}]"#, workspace, url)
        #expect(try Self.stored("Cat", engine, workspace) == ["Roy"])
        #expect(try Self.stored("Task", engine, workspace) == ["2"])
        #expect(report.counts("Cat")["deleted"] == 2)
        #expect(report.counts("Task")["deleted"] == 1)
        #expect(report.counts("Task")["updated"] == 0)
    }

    @Test(
        "testReplacmentPolicyForToManyCoreDataRelationshipDoesNotDeleteNewValuesOnSecondMapping",
        arguments: CLIStore.allCases)
    func sameListTwice(engine: CLIStore) async throws {
        let humans = #"[{"name": "Blake", "cats": [{"name": "Roy"}], "favorite_cat": {"name": "Roy"}}]"#
        let (workspace, url) = try await start(engine, humans)
        let report = try await run(humans, workspace, url)
        #expect(try Self.stored("Cat", engine, workspace) == ["Roy"])
        #expect(report.counts("Cat")["deleted"] == 0)
        #expect(report.counts("Cat")["unchanged"] == 1)
    }

    @Test(
        "testUnionAssignmentPolicyForToManyCoreDataRelationshipDeletesExistingValuesWithAssignsNilForMissingRelationships: a union deletes nothing",
        arguments: CLIStore.allCases)
    func unionKeeps(engine: CLIStore) async throws {
        let (workspace, url) = try await start(engine, #"[{"name": "Blake", "friends": [{"name": "Lola"}]}]"#)
        _ = try await run(#"[{"name": "Blake", "friends": [{"name": "Roy"}]}, {"name": "Sarah"}]"#, workspace, url)
        #expect(try Self.stored("Cat", engine, workspace) == ["Lola", "Roy"])
    }

    @Test(
        "a replaced cat another human still holds, one the run lists elsewhere, and objects with a source of their own stay",
        arguments: CLIStore.allCases)
    func heldElsewhere(engine: CLIStore) async throws {
        let (workspace, url) = try await start(
            engine,
            #"""
            [{"name": "Blake", "cats": [{"name": "Lola"}, {"name": "Tom"}, {"name": "Kit"}], "toys": [{"name": "Ball"}]},
             {"name": "Sarah", "favorite_cat": {"name": "Lola"}}]
            """#)

        // Lola is still Sarah's favorite (Sarah is not in the run), Tom moves to Ann; Kit goes. Ball, a
        // toy with a source of its own, is only unlinked.
        let report = try await run(
            #"[{"name": "Blake", "cats": [], "toys": []}, {"name": "Ann", "cats": [{"name": "Tom"}]}]"#, workspace, url)
        #expect(try Self.stored("Cat", engine, workspace) == ["Lola", "Tom"])
        #expect(try Self.stored("Toy", engine, workspace) == ["Ball"])
        #expect(report.counts("Cat")["deleted"] == 1)
        #expect(try Self.column("favorite_cat_name", of: "Human", "Sarah", engine, workspace) == .string("Lola"))
    }
}
