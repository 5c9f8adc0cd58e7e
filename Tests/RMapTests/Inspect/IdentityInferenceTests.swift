import Foundation
import RMapSQLite
import Testing

/// RestKit's `RKEntityIdentificationInference` (issue 33, item 9): an entity without `identity:` is
/// identified by the first of `id`, `<element>ID`, `<element>_id`, `identifier` and `ID` it has, and
/// `rmap inspect` says the identity was inferred; each case translated from RKEntityMappingTest.
@Suite("Identity inference and what rmap inspect shows of issue 33's keys")
struct IdentityInferenceTests {
    /// The `identity:` line `rmap inspect` prints for a `Monkey` with these attributes, or its mapping errors.
    private func inferred(_ attributes: String, extra: String = "") async throws -> String {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            entities:
              Monkey:
                attributes: { \(attributes) }
            \(extra)
            """
        ])
        let result = try await workspace.rmap(["inspect", "map.yml"])
        guard result.status == 0 else { return result.stderr }
        return result.stdout.split(separator: "\n").first { $0.hasPrefix("  identity:") }.map(String.init) ?? ""
    }

    // RKEntityMappingTest testEntityIdentifierInferenceForEntityWithLlamaCasedIDAttribute,
    // testInferenceOfSnakeCasedEntityName, testEntityIdentifierInferenceForEntityWithIdentifierAttribute and
    // testEntityIdentifierInferenceForEntityWithIDAttribute.
    @Test(
        "testEntityIdentifierInferenceForEntityWithLlamaCasedIDAttribute and its siblings: the identity is inferred",
        arguments: [
            ("monkeyID: int, name: string", "monkeyID"), ("monkey_id: int, name: string", "monkey_id"),
            ("identifier: string, name: string", "identifier"), ("ID: int", "ID"),
            ("name: string, monkeyID: int, id: int", "id"), ("identifier: string, monkeyID: int", "monkeyID"),
        ])
    func inferredIdentity(attributes: String, identity: String) async throws {
        #expect(try await inferred(attributes) == "  identity: \(identity) (inferred)")
    }

    @Test("a declared identity is not marked inferred; an entity with none of the names is still an error")
    func declaredAndMissing() async throws {
        #expect(
            try await inferred("id: int, name: string", extra: "    identity: name") == "  identity: name")
        #expect(
            try await inferred("url: url, name: string")
                == "map.yml:3:3: entity 'Monkey' has no identity: add an 'id' attribute or declare 'identity:'\n")
    }

    // RKEntityMappingTest testEntityIdentifierInferenceSearchesParentEntities: a sub-entity is identified
    // as its root is (they share one table and identity map), the root's inferred attribute included.
    @Test("testEntityIdentifierInferenceSearchesParentEntities: a sub-entity takes its root's inferred identity")
    func subEntityTakesTheRootsIdentity() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Animal:
                type_key: type
                attributes: { animalID: int, name: string }
              Monkey: { extends: Animal }
            """,
            "animals.json": #"[{"animal_id": 7, "name": "Abu", "type": "Monkey"}, {"animal_id": 7, "name": "Abu II"}]"#,
        ])
        let inspect = try await workspace.rmap(["inspect", "map.yml", "--format", "json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let entities = try #require(document["entities"] as? [[String: Any]])
        for entity in entities {
            #expect(entity["identity"] as? [String] == ["animalID"])
            #expect(entity["identity_inferred"] as? Bool == true)
        }
        let run = try await workspace.rmap(["run", "map.yml", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try workspace.rows("SELECT animal_id, name, type FROM animals") == [
                [.integer(7), .text("Abu II"), .text("Monkey")]
            ])
    }

    @Test("rmap inspect shows the new keys in text and JSON")
    func inspectShowsTheKeys() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            time_zone: Europe/Berlin
            entities:
              User:
                identity: name
                type_key: type
                unknown_type: skip
                attributes:
                  name: string
                  bornOn: { type: date, empty_as_null: true, format: dd.MM.yyyy }
                  admin: { type: bool, true_values: [Y], false_values: [N] }
                  tags: { type: "[string]", wrap_single: true }
                relationships:
                  coordinate: { to_one: Coordinate, embedded: true }
                  pets: { to_many: Pet, nested: true, identify_nested_by_parent_key: { ownerName: name } }
              Coordinate:
                source: false
                identity: userName
                attributes: { userName: string, latitude: double }
              Pet:
                source: false
                identity: [ownerName, name]
                attributes: { ownerName: string, name: string }
            """
        ])
        let text = try await workspace.rmap(["inspect", "map.yml"])
        #expect(text.status == 0, "\(text.stderr)")
        for line in [
            "  unknown_type: skip\n",
            "    bornOn: date, key born_on, column born_on, format dd.MM.yyyy, time_zone Europe/Berlin, empty_as_null\n",
            "    admin: bool, key admin, column admin, true_values [y], false_values [n]\n",
            "    tags: [string], key tags, column tags, wrap_single\n",
            "    coordinate: to_one Coordinate, embedded\n",
            "    pets: to_many Pet, nested, key pets, identify_nested_by_parent_key {ownerName <- name}, assignment replace\n",
        ] {
            #expect(text.stdout.contains(line), "\(line) in \(text.stdout)")
        }
        let json = try await workspace.rmap(["inspect", "map.yml", "--format", "json"])
        for member in [
            #""unknown_type":"skip""#,
            #""format":"dd.MM.yyyy","time_zone":"Europe/Berlin","empty_as_null":true,"wrap_single":false,"true_values":null,"false_values":null"#,
            #""true_values":["y"],"false_values":["n"]"#,
            #""nested":true,"embedded":true,"identify_nested_by_parent_key":null"#,
            #""identify_nested_by_parent_key":[{"attribute":"ownerName","parent":"name"}]"#,
        ] {
            #expect(json.stdout.contains(member), "\(member) in \(json.stdout)")
        }
    }
}
