import RMap
import RMapAuthoring
import Testing

@Suite("inspect text")
struct ModelTextTests {
    @Test("an entity's resolved names, attributes and connections")
    func member() throws {
        let text = ModelText.render(try InspectModels.load(InspectModels.team))
        let member = try #require(text.components(separatedBy: "\n\n").first { $0.hasPrefix("Member ") })
        #expect(
            member == """
                Member (team.yml:11:3)
                  element: member
                  collection: members
                  path: members
                  table: members
                  identity: id (inferred)
                  source: none (arrives nested)
                  sort: [name desc]
                  push: put
                  on_conflict: fail
                  orphans: keep
                  root: auto
                  attributes:
                    id: int, key id, column id
                    name: string, key name, column name
                    teamId: int, key team_id, column team_id
                    city: string, key address.city, column address_city
                    archived: bool, key archived, column archived, default false
                    age: int, key age, column age
                    seenAt: datetime, key seen_at, column seen_at, readonly, format epoch_ms
                  relationships:
                    team: to_one Team, inverse members, key team, foreign_key {teamId -> id}, include_subentities true
                    buddies: to_many Member, key buddies, assignment replace, foreign_key {id -> id}, include_subentities false, when {archived = false}, where {age >= 18 and name in [Ann, Bo|b] and seenAt is not null}
                """)
        #expect(
            text.contains(
                "Lead (team.yml:33:3)\n  element: lead\n  collection: leads\n  path: leads\n  table: members\n  parent: Member\n"
            ))
    }

    @Test("source options are shown with environment values redacted; key segments holding dots are listed")
    func sourceAndKeys() throws {
        let text = ModelText.render(try InspectModels.load(InspectModels.nested, environment: ["TOKEN": "t0k3n"]))
        #expect(text.contains("  source: http {site: https://api.example.com, headers: {Authorization: Bearer ***}}\n"))
        #expect(!text.contains("t0k3n"))
        #expect(text.contains("    lampOn: bool, key [lamp.enabled], column lamp_enabled\n"))
        #expect(text.contains("    projects: to_many Project, nested, key projects, assignment replace\n"))
    }
}
