import RMap

/// Small models for the inspect renderers' tests.
enum InspectModels {
    /// Teams and members: a connected one-to-many with its inverse, a
    /// self-referencing many-to-many with predicates, and a sub-entity.
    static let team = """
        rmap: 1
        entities:
          Team:
            attributes:
              id: int
              name: string
            relationships:
              members:
                to_many: Member
                inverse: team
          Member:
            sort: [name desc]
            attributes:
              id: int
              name: string
              teamId: int
              city: { key: address.city }
              archived: { type: bool, default: false }
              age: int
              seenAt: { type: datetime, format: epoch_ms, readonly: true }
            relationships:
              team:
                to_one: Team
                connect:
                  foreign_key: { teamId: id }
              buddies:
                to_many: Member
                connect:
                  foreign_key: { id: id }
                  include_subentities: false
                  when: { archived: false }
                  where: { age: { ge: 18 }, name: [Ann, "Bo|b"], seenAt: { null: false } }
          Lead:
            extends: Member
            attributes:
              budget: decimal
        """

    /// A person with nested projects, and an HTTP source whose token comes from the environment.
    static let nested = """
        rmap: 1
        source:
          plugin: http
          site: https://api.example.com
          headers: { Authorization: "Bearer ${TOKEN}" }
        entities:
          Person:
            attributes:
              id: int
              lampOn: { key: [lamp.enabled], type: bool }
            relationships:
              projects:
                to_many: Project
                nested: true
          Project:
            source: false
            attributes:
              id: int
              tags: [string]
        """

    /// Loads one mapping file's text.
    static func load(_ text: String, file: String = "team.yml", environment: [String: String] = [:]) throws
        -> MappingModel
    {
        let catalog = PluginCatalog(
            sources: ["file": ["path"], "http": ["site", "headers"]], stores: ["sqlite": ["path"]])
        return try MappingLoader(environment: environment, catalog: catalog).load(documents: [(file, text)])
    }
}
