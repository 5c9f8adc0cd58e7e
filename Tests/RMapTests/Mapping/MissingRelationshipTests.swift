import Foundation
import RMap
import Testing

/// `missing: nullify` on a nested relationship (issue 33, item 8): a record without the key empties
/// the relationship as `null` would, RestKit's `assignsNilForMissingRelationships`; translated from
/// RKObjectMappingNextGenTest and run into SQLite and PostgreSQL.
@Suite("missing: nullify on nested relationships")
struct MissingRelationshipTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Human:
            collection: humans
            identity: name
            attributes: { name: string }
            relationships:
              favoriteCat: { to_one: Cat, nested: true, missing: nullify }
              cats: { to_many: Cat, nested: true, missing: nullify }
              pets: { to_many: Cat, nested: true }
          Cat:
            source: false
            identity: name
            attributes: { name: string }
            relationships:
              fans: { to_many: Human, inverse: favoriteCat }
        """

    /// Each relationship's links that are not empty, keyed `<human> <relationship>`: destination names.
    private func links(_ engine: CLIStore, _ workspace: RunWorkspace) throws -> [String: [String]] {
        let schema = try workspace.schema("map.yml")
        let objects = try engine.open(workspace).objects(schema: schema)
        let humans = StoreLayout(schema: schema).table(of: try #require(schema.type(named: "Human")))
        let favorite = try #require(humans.columnIndex("favorite_cat_name"))
        var found: [String: [String]] = [:]
        // The favorite is the human's own column (its inverse `fans` keeps no links of its own).
        for values in try objects.rows(of: "Human").compactMap(\.values) {
            guard case .string(let cat) = values[favorite] else { continue }
            found["\(IdentityKey(humans.identityValues(of: values))) favoriteCat"] = [cat]
        }
        for relationship in ["cats", "pets"] {
            for (human, cats) in try objects.links(of: "Human", relationship) where !cats.isEmpty {
                found["\(human) \(relationship)"] = cats.map(\.description).sorted()
            }
        }
        return found
    }

    // RKObjectMappingNextGenTest testShouldOptionallyNilOutTheRelationshipIfItIsMissing (the deletion of the
    // replaced cat, testReplacmentPolicyForToOneCoreDataRelationshipDeletesExistingValuesAndRespectsAssignsNilForMissingRelationships,
    // is ReplacedNestedObjectTests').
    @Test(
        "testShouldOptionallyNilOutTheRelationshipIfItIsMissing: a missing key empties the relationship",
        arguments: CLIStore.allCases)
    func nullifiesMissingRelationships(engine: CLIStore) async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.mapping,
            "humans.json": """
            [{"name": "Blake", "favorite_cat": {"name": "Lola"}, "cats": [{"name": "Lola"}, {"name": "Roy"}],
              "pets": [{"name": "Roy"}]},
             {"name": "Sarah", "favorite_cat": {"name": "Roy"}, "cats": [{"name": "Roy"}]}]
            """,
        ])
        let url = try engine.url(for: workspace)
        #expect(try await workspace.runMap(["--store", url]).status == 0)
        let before = try links(engine, workspace)
        #expect(before["Blake favoriteCat"] == ["Lola"], "\(before)")
        #expect(before["Blake cats"] == ["Lola", "Roy"], "\(before)")

        // Blake's record lacks every key: the two `missing: nullify` relationships are emptied, `pets`
        // (the default, `keep`) is left as it was. Sarah's record carries her cats and no favorite.
        try workspace.write("humans.json", #"[{"name": "Blake"}, {"name": "Sarah", "cats": [{"name": "Roy"}]}]"#)
        _ = try await workspace.runMap(["--store", url])
        let after = try links(engine, workspace)
        #expect(after["Blake favoriteCat"] == nil && after["Blake cats"] == nil, "\(after)")
        #expect(after["Sarah favoriteCat"] == nil && after["Sarah cats"] == ["Roy"], "\(after)")
        // `keep` leaves Blake's pets. Only the streamed run (SQLite) is asked: PostgreSQL still writes
        // through the graph path on this branch, which rewrites a nested join table's links of every
        // object fetched, key or no key (reported; PostgreSQL's streamed run replaces it).
        if engine == .sqlite { #expect(after["Blake pets"] == ["Roy"], "\(after)") }
        // Lola, which nothing holds any more, is deleted as a replaced nested-only object; Roy, in the run
        // (Sarah's cats) and Blake's pet, stays.
        #expect(try ReplacedNestedObjectTests.stored("Cat", engine, workspace) == ["Roy"])
    }

    @Test("missing: nullify applies to nested relationships that replace; other values are errors")
    func validation() {
        #expect(
            LoaderHarness.issues(
                """
                rmap: 1
                entities:
                  U:
                    attributes: { id: int, catId: int }
                    relationships:
                      a: { to_many: C, nested: true, assignment: union, missing: nullify }
                      b: { to_one: C, connect: { foreign_key: { catId: id } }, missing: nullify }
                      c: { to_one: C, embedded: true, missing: nullify }
                      d: { to_many: C, nested: true, missing: delete }
                  C:
                    source: false
                    attributes: { id: int, x: string }
                """) == [
                    "mappings/crm.yml:6:66: 'missing: nullify' has no effect on relationship 'a' of 'U' with 'assignment: union': a union never removes members",
                    "mappings/crm.yml:7:73: 'missing: nullify' applies to nested relationships: relationship 'b' of 'U' is not nested, so no record holds its key",
                    "mappings/crm.yml:8:48: 'missing: nullify' applies to nested relationships: relationship 'c' of 'U' is embedded, so no record holds its key",
                    "mappings/crm.yml:9:47: 'missing' must be one of keep, nullify, found 'delete'",
                ])
    }
}
