import Foundation
import RMapSQLite
import Testing

/// Mapping features of RestKit's own tests that rmap expresses declaratively (issue #13, item 5),
/// each translated from the RestKit test it names, end to end into SQLite.
@Suite("RestKit mapping features")
struct RestKitMappingTests {
    /// RestKit's fixture `DynamicKeys.json`.
    static let dynamicKeys = """
        {"users": {"blake": {"id": 31337, "website": "http://restkit.org/"},
                   "rachit": {"id": 7, "website": "http://www.twotoasters.com/"}}}
        """

    // RKObjectMappingNextGenTest testShouldMapACollectionOfObjectsWithDynamicKeys:
    // `addAttributeMappingFromKeyOfRepresentationToAttribute:@"name"` and `(name).id` -> userID.
    @Test("records keyed by a dictionary key: each key goes into the attribute key_as names")
    func dynamicKeys() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              User:
                identity: name
                records: { key_as: name }
                attributes: { name: string, userID: { type: int, key: id }, website: string }
            """,
            "users.json": Self.dynamicKeys,
        ])
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT name, id, website FROM users ORDER BY rowid") == [
                [.text("blake"), .integer(31337), .text("http://restkit.org/")],
                [.text("rachit"), .integer(7), .text("http://www.twotoasters.com/")],
            ])
    }

    @Test("records keyed by a dictionary key under a path")
    func dynamicKeysUnderPath() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              User:
                identity: login
                records: { path: data.members, key_as: login }
                attributes: { login: string, id: int }
            """,
            "users.json": #"{"data": {"members": {"alice": {"id": 1}, "bob": {"id": 2}}}}"#,
        ])
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT login, id FROM users ORDER BY login") == [
                [.text("alice"), .integer(1)], [.text("bob"), .integer(2)],
            ])
        try workspace.write("users.json", #"{"data": {"members": [{"id": 1}]}}"#)
        let wrong = try await workspace.rmap(["run", "map.yml", "--quiet"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("expected an object of User records keyed by 'login', found an array"))
    }

    @Test("key_as must name an attribute")
    func keyAsNamesAnAttribute() {
        #expect(
            LoaderHarness.issues(
                """
                rmap: 1
                entities:
                  User:
                    identity: login
                    records: { key_as: logn }
                    attributes: { login: string }
                """) == [
                    "mappings/crm.yml:5:24: 'key_as' of entity 'User' names no attribute 'logn' (did you mean 'login'?)"
                ])
    }

    /// The rows of the join table holding `Human.cats`.
    private func links(_ workspace: RunWorkspace) throws -> Int64? {
        let tables = try workspace.tables().filter { $0.hasPrefix("humans_") }
        try #require(tables.count == 1, "\(tables)")
        guard case .integer(let count)? = try workspace.rows("SELECT count(*) FROM \(tables[0])").first?.first else {
            return nil
        }
        return count
    }

    static let cats = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Human:
            collection: humans              # Rails' inflector says "humen"
            records: userSessions
            identity: railsID
            attributes: { railsID: { type: int, key: identification }, name: string }
            relationships:
              cats: { to_many: Cat, nested: true, key: catIDs }
          Cat:
            source: false
            identity: railsID
            attributes: { railsID: int }
        """

    // RKManagedObjectMappingOperationDataSourceTest testMappingIdentificationAttributesFromElementsOnAnArray and
    // testMappingIdentificationAttributesFromElementsOnAnArrayDoesNotDuplicateManagedObjects: `catIDs` is an
    // array of strings, each the identity of a Cat (an attribute mapping from a nil key path).
    @Test("a nested array of scalars maps each scalar to an object by its identity, without duplicates")
    func scalarArrayToObjects() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.cats,
            "humans.json":
                #"{"userSessions": {"name": "Mr. User", "identification": 54321, "catIDs": ["418", "419"]}}"#,
        ])
        _ = try await workspace.runMap()
        try workspace.write(
            "humans.json",
            #"{"userSessions": {"name": "Mr. User", "identification": 54321, "catIDs": ["418", "419", "431", "441", "457", "486", "504"]}}"#
        )
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT rails_id FROM cats ORDER BY rails_id")
                == [418, 419, 431, 441, 457, 486, 504].map { [.integer($0)] })
        #expect(try links(workspace) == 7)
    }

    // RKManagedObjectMappingOperationDataSourceTest
    // testMappingStringIdentificationAttributesFromElementsOnAnArrayDoesNotDuplicateManagedObjects.
    @Test("two records listing the same scalar identities share the objects")
    func sharedScalarIdentities() async throws {
        let ids = #"["418", "419", "431", "441", "457", "486", "504"]"#
        let workspace = try RunWorkspace([
            "map.yml": Self.cats.replacingOccurrences(
                of: "identity: railsID\n    attributes: { railsID: int }",
                with: "identity: name\n    attributes: { name: string }"),
            "humans.json": """
            {"userSessions": [{"name": "Mr. User", "identification": 54321, "catIDs": \(ids)},
                              {"name": "Miss User", "identification": 54322, "catIDs": \(ids)}]}
            """,
        ])
        _ = try await workspace.runMap()
        #expect(try workspace.rows("SELECT count(*), count(DISTINCT name) FROM cats") == [[.integer(7), .integer(7)]])
        #expect(try workspace.rows("SELECT name FROM cats WHERE name = '418'") == [[.text("418")]])
        #expect(try links(workspace) == 14)
    }

    static let humans = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Human:
            collection: humans
            attributes:
              id: int
              name: string
              likesDogs: { type: bool, default: true, default_on_missing: true }
              nickname: { type: string, default: none }
        """

    // RKObjectMappingNextGenTest testShouldOptionallySetDefaultValueForAMissingKeyPath
    // (assignsDefaultValueForMissingAttributes YES: a stored object's missing key takes the default),
    // testMappingFromMissingSourceKeyPathAssignsNil (NO: the stored value stays) and
    // testThatMappingToNonOptionalPropertyWithDefaultSetsDefault (a new object gets the default).
    @Test("default_on_missing: a missing key takes the default on stored objects; without it the value stays")
    func assignsDefaultValueForMissingAttributes() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.humans,
            "humans.json": #"[{"id": 1, "name": "Blake Watters", "likes_dogs": false, "nickname": "B"}]"#,
        ])
        _ = try await workspace.runMap()
        try workspace.write("humans.json", #"[{"id": 1, "name": "Blake Watters"}, {"id": 2, "name": "Rachit"}]"#)
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT id, likes_dogs, nickname FROM humans ORDER BY id") == [
                [.integer(1), .integer(1), .text("B")], [.integer(2), .integer(1), .text("none")],
            ])
    }
}
