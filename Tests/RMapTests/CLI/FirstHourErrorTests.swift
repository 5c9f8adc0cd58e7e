import Foundation
import Testing

/// The errors a newcomer meets in the first hour (issue 34), as `rmap` prints them: each names
/// its cause and what to do, and the first real cause comes first.
@Suite("rmap: errors a person can act on")
struct FirstHourErrorTests {
    static let people = """
        rmap: 1
        entities:
          Person:
            source: { plugin: file, path: people.json }
            attributes: { id: int, name: string, bornOn: date }
        """

    @Test("a type from another schema language gets a suggestion, and no knock-on error comes before it")
    func typeSynonym() async throws {
        let workspace = try RunWorkspace(["m.yml": Self.people.replacingOccurrences(of: "id: int", with: "id: integer")]
        )
        let result = try await workspace.rmap(["validate", "m.yml"])
        #expect(result.stderr == "m.yml:5:23: unknown type 'integer' for attribute 'id' (did you mean 'int'?)\n")
        #expect(result.status == 2)
    }

    @Test("a number given to a date attribute is a rejected record, not 1970-01-01")
    func numberForDate() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.people,
            "people.json": #"[{"id": 1, "name": "Ada", "born_on": 1500}, {"id": 2, "name": "Bo"}]"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "rejected: people.json record 0 (Person id=1): attribute 'bornOn' (key born_on): cannot read 1500 as a date\n"
        )
        #expect(try workspace.rows("SELECT id, born_on FROM people ORDER BY id") == [[.integer(2), .null]])
    }

    @Test("a wrong indentation gets a hint")
    func indentation() async throws {
        let mapping = Self.people.replacingOccurrences(of: "    attributes:", with: "   attributes:")
        let result = try await RunWorkspace(["m.yml": mapping]).rmap(["validate", "m.yml"])
        #expect(
            result.stderr
                == "m.yml:5:4: did not find expected key while parsing a block mapping (check the indentation: the "
                + "keys of one mapping start in the same column)\n")
        #expect(result.status == 2)
    }

    @Test("an empty ${VAR} names the variable, instead of a file that lost a part of its path")
    func emptyVariable() async throws {
        let mapping = Self.people.replacingOccurrences(
            of: "source: { plugin: file, path: people.json }",
            with: "source:\n      plugin: file\n      path: ${DATA}/people.json")
        let workspace = try RunWorkspace(["m.yml": mapping])
        let result = try await CLIRunner.run(["run", "m.yml", "--quiet"], in: workspace.url, environment: ["DATA": ""])
        #expect(
            result.stderr == "m.yml:6:13: environment variable 'DATA' is empty (write ${DATA:-} where empty is meant)\n"
        )
        #expect(result.status == 2)
    }

    @Test("a payload whose records sit under a key says which 'records:' to add; nothing is written")
    func recordsKeyPath() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.people,
            "people.json": #"{"meta": {"total": 2}, "items": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bo"}]}"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(
            result.stderr
                == "Error: people.json: the payload is one object without Person's 'id'; its 'items' holds 2 objects: "
                + "if they are the records, add 'records: items' to Person\n")
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("rmap.sqlite")))
    }

    @Test("a problem of an inherited relationship is reported once, at the parent")
    func inheritedRelationship() async throws {
        let mapping = """
            rmap: 1
            source: { plugin: file, path: people.json }
            entities:
              Person:
                type_key: type
                attributes: { id: int }
                relationships:
                  projects: { to_many: Project, nested: true }
              Admin:
                extends: Person
            """
        let result = try await RunWorkspace(["m.yml": mapping]).rmap(["validate", "m.yml"])
        #expect(result.stderr == "m.yml:8:28: relationship 'projects' of 'Person' points to unknown entity 'Project'\n")
    }
}
