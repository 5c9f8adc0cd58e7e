import Foundation
import Testing

@testable import RMap
@testable import RMapPostgres
@testable import RMapSQLite

/// Orphans by reachability (issue 33, item 11): with `orphans: delete`, an object of a `source:
/// false` entity that no object with a source of its own reaches through nested links any more
/// is deleted, through self-references and cycles; translated from RestKit's
/// RKManagedObjectRequestOperationTest and run with the `rmap` binary into SQLite and PostgreSQL.
@Suite("Orphans by reachability")
struct UnreachableObjectTests {
    static let houses = """
        rmap: 1
        naming: { attributes: as_is }
        source: { plugin: file, path: "{collection}.json" }
        entities:
          House:
            identity: houseID
            orphans: delete
            attributes: { houseID: int, city: string }
            relationships:
              owner: { to_one: Human, nested: true }
              occupants: { to_many: Human, nested: true }
          Human:
            source: false
            orphans: delete
            identity: humanID
            attributes: { humanID: int, name: string }
            relationships:
              landlord: { to_one: Human, nested: true }
              roommates: { to_many: Human, nested: true }
        """

    /// RestKit's fixture humans/nested_self_referential.json: John, Mary and Edward reach each
    /// other as roommates, Blake is everyone's landlord.
    static let nestedSelfReferential = """
        {"houseID": 1, "city": "New York City", "owner": {"humanID": 1, "name": "Blake"},
         "occupants": [{"humanID": 2, "name": "John", "landlord": {"humanID": 1, "name": "Blake"},
           "roommates": [
             {"humanID": 3, "name": "Mary", "landlord": {"humanID": 1, "name": "Blake"},
              "roommates": [{"humanID": 2, "name": "John"}, {"humanID": 4, "name": "Edward"}]},
             {"humanID": 4, "name": "Edward", "landlord": {"humanID": 1, "name": "Blake"},
              "roommates": [{"humanID": 2, "name": "John"}, {"humanID": 3, "name": "Mary"}]}]}]}
        """

    @Test(
        "testDeletionOfObjectsMappedFindsObjectsMappedByNestedSelfReferentialMappings: humans no house reaches go, cycles too",
        arguments: CLIStore.allCases)
    func nestedSelfReferential(engine: CLIStore) async throws {
        // House 2's owner, Orphan, and his roommate Cycle hold each other: a cycle no house reaches
        // once house 2 is gone.
        let workspace = try RunWorkspace([
            "map.yml": Self.houses,
            "houses.json": """
            [\(Self.nestedSelfReferential),
             {"houseID": 2, "owner": {"humanID": 5, "name": "Orphan",
               "roommates": [{"humanID": 6, "name": "Cycle", "roommates": [{"humanID": 5}]}]}}]
            """,
        ])
        let url = try engine.url(for: workspace)
        _ = try await ReplacedNestedObjectTests.run(workspace, url)
        #expect(try ReplacedNestedObjectTests.stored("Human", engine, workspace) == ["1", "2", "3", "4", "5", "6"])

        try workspace.write("houses.json", "[\(Self.nestedSelfReferential)]")
        let report = try await ReplacedNestedObjectTests.run(workspace, url)
        #expect(report.counts("House")["orphans_deleted"] == 1)
        #expect(report.counts("Human")["orphans_deleted"] == 2)
        // Edward is reached through John's and Mary's roommates only.
        #expect(try ReplacedNestedObjectTests.stored("Human", engine, workspace) == ["1", "2", "3", "4"])
        #expect(try ReplacedNestedObjectTests.stored("House", engine, workspace) == ["1"])
    }

    @Test(
        "testDeletionOfOrphanedTagsOfPosts: a tag no post links is deleted, one created locally stays",
        arguments: CLIStore.allCases)
    func tagsNeverLinked(engine: CLIStore) async throws {
        let posts = """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Post:
                identity: title
                attributes: { title: string }
                relationships:
                  tags: { to_many: Tag, nested: true }
              Tag:
                identity: name
                attributes: { name: string }
            """
        // The tags were first imported on their own: "orphaned" is linked to no post.
        let workspace = try RunWorkspace([
            "map.yml": posts,
            "posts.json": #"[{"title": "Post Title", "tags": [{"name": "development"}, {"name": "restkit"}]}]"#,
            "tags.json": #"[{"name": "orphaned"}, {"name": "development"}]"#,
        ])
        let url = try engine.url(for: workspace)
        _ = try await ReplacedNestedObjectTests.run(workspace, url)
        #expect(
            try ReplacedNestedObjectTests.stored("Tag", engine, workspace) == ["development", "orphaned", "restkit"])
        try local("INSERT INTO tags (name) VALUES ('mine')", engine, workspace)

        // Tags now only arrive nested: without `orphans: delete` the unlinked tag stays.
        let nested = posts.replacingOccurrences(of: "  Tag:\n", with: "  Tag:\n    source: false\n")
        try workspace.write("map.yml", nested)
        _ = try await ReplacedNestedObjectTests.run(workspace, url)
        #expect(
            try ReplacedNestedObjectTests.stored("Tag", engine, workspace) == [
                "development", "mine", "orphaned", "restkit",
            ])

        // With it, the tag no post reaches goes; the one created locally stays.
        try workspace.write(
            "map.yml", nested.replacingOccurrences(of: "source: false\n", with: "source: false\n    orphans: delete\n"))
        let report = try await ReplacedNestedObjectTests.run(workspace, url)
        #expect(report.counts("Tag")["orphans_deleted"] == 1)
        #expect(try ReplacedNestedObjectTests.stored("Tag", engine, workspace) == ["development", "mine", "restkit"])
    }

    @Test(
        "testDeletionOfOrphanedObjectsMappedWithCyclicRelationshipThatIsNotSelfReferential: lists, entries and authors",
        arguments: CLIStore.allCases)
    func cyclicLists(engine: CLIStore) async throws {
        let mapping = """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Catalog:
                identity: name
                orphans: delete
                attributes: { name: string }
                relationships:
                  lists: { to_many: List, nested: true }
              List:
                source: false
                orphans: delete
                identity: name
                attributes: { name: string }
                relationships:
                  author: { to_one: Author, nested: true }
                  entries: { to_many: Entry, nested: true, assignment: union }
              Entry:
                source: false
                orphans: delete
                identity: name
                attributes: { name: string }
                relationships:
                  relatedList: { to_one: List, nested: true }
              Author:
                source: false
                orphans: delete
                identity: name
                attributes: { name: string }
            """
        // RestKit's fixture lists.json, in a catalog; a second catalog holds the orphaned author and list.
        let lists = """
            {"name": "Lists", "lists": [
              {"name": "First List", "author": {"name": "Blake"}, "entries": [{"name": "First List Entry"}]},
              {"name": "Second List", "author": {"name": "Blake"}, "entries": [{"name": "Second List Entry"}]},
              {"name": "Third List", "author": {"name": "Sarah"},
               "entries": [{"name": "Third List Entry", "relatedList": {"name": "First List"}}]}]}
            """
        let workspace = try RunWorkspace([
            "map.yml": mapping,
            "catalogs.json": """
            [\(lists),
             {"name": "Old", "lists": [{"name": "Orphaned List", "author": {"name": "Orphaned Author"},
               "entries": [{"name": "Orphaned Entry", "relatedList": {"name": "Orphaned List"}}]},
              {"name": "Second List", "entries": [{"name": "Existing Entry"}]}]}]
            """,
        ])
        let url = try engine.url(for: workspace)
        _ = try await ReplacedNestedObjectTests.run(workspace, url)

        try workspace.write("catalogs.json", "[\(lists)]")
        let report = try await ReplacedNestedObjectTests.run(workspace, url)
        #expect(report.counts("List")["orphans_deleted"] == 1)
        #expect(report.counts("Author")["orphans_deleted"] == 1)
        #expect(report.counts("Entry")["orphans_deleted"] == 1)
        #expect(
            try ReplacedNestedObjectTests.stored("List", engine, workspace)
                == ["First List", "Second List", "Third List"])
        // The union kept Second List's earlier entry, reached through it.
        #expect(
            try ReplacedNestedObjectTests.stored("Entry", engine, workspace)
                == ["Existing Entry", "First List Entry", "Second List Entry", "Third List Entry"])
        #expect(try ReplacedNestedObjectTests.stored("Author", engine, workspace) == ["Blake", "Sarah"])
    }

    @Test("orphans: delete on a nested-only entity is no mapping error")
    func loads() {
        #expect(LoaderHarness.issues(Self.houses).isEmpty)
    }

    /// Runs `sql` with a client of the store's own, as an application would: a local edit.
    private func local(_ sql: String, _ engine: CLIStore, _ workspace: RunWorkspace) throws {
        switch engine {
        case .sqlite: try SQLiteConnection(path: workspace.path("rmap.sqlite")).execute(sql)
        case .postgres: _ = try PostgresConnection(url: engine.url(for: workspace)).query(sql)
        }
    }
}
