import Testing

/// `rmap validate` reports every problem at once, so one edit fixes them all.
@Suite("rmap validate: every problem in one pass")
struct ValidateOnePassTests {
    @Test("unknown keys inside a relationship to an unknown entity are reported with the entity")
    func unknownDestination() async throws {
        let workspace = try RunWorkspace([
            "m.yml": """
            rmap: 1
            source: { plugin: file, path: x.json }
            entities:
              Person:
                attributes: { id: int, teamId: int, name: strng }
                relationships:
                  team: { to_one: Teem, connect: { forign_key: { teamId: id }, wher: { a: 1 } } }
                  other: { to_many: Nope, inverse: x, connect: { key_path: a.b, bogus: 2 } }

            """
        ])
        let result = try await workspace.rmap(["validate", "m.yml"])
        #expect(
            result.stderr == """
                m.yml:5:47: unknown type 'strng' for attribute 'name' (did you mean 'string'?)
                m.yml:7:23: relationship 'team' of 'Person' points to unknown entity 'Teem'
                m.yml:7:40: unknown key 'forign_key' in connect (did you mean 'foreign_key'?)
                m.yml:7:68: unknown key 'wher' in connect (did you mean 'when'?)
                m.yml:8:25: relationship 'other' of 'Person' points to unknown entity 'Nope'
                m.yml:8:69: unknown key 'bogus' in connect

                """)
        #expect(result.stdout == "")
        #expect(result.status == 2)
    }
}
