import RMap
import RMapAuthoring
import Testing

@Suite("Mermaid erDiagram")
struct MermaidDiagramTests {
    @Test("one block per table, typed columns with keys, one line per relationship pair")
    func team() throws {
        let model = try InspectModels.load(InspectModels.team)
        #expect(
            MermaidDiagram.render(model) == """
                erDiagram
                    Team {
                        int id PK
                        string name
                    }
                    Member {
                        int id PK
                        string name
                        int team_id FK "teamId"
                        string address_city "city"
                        bool archived
                        int age
                        datetime seen_at "seenAt"
                        decimal budget
                        string type
                    }
                    Team |o--o{ Member : members
                    Member }o--o{ Member : buddies

                """)
    }

    @Test("a nested to-many: exactly one parent; array types are one word")
    func nested() throws {
        let model = try InspectModels.load(InspectModels.nested, environment: ["TOKEN": "t0k3n"])
        #expect(
            MermaidDiagram.render(model) == """
                erDiagram
                    Person {
                        int id PK
                        bool lamp_enabled "lampOn"
                    }
                    Project {
                        int id PK
                        string[] tags
                    }
                    Person ||--o{ Project : projects

                """)
    }

    @Test("a nested to-one's foreign-key column is listed and marked FK, whether an attribute shares it or not")
    func nestedToOne() throws {
        let model = try InspectModels.load(
            """
            rmap: 1
            source: { plugin: file, path: people.json }
            entities:
              Person:
                attributes: { id: int }
                relationships:
                  projects: { to_many: Project, nested: true, inverse: owner }
              Project:
                source: false
                attributes: { id: int }
                relationships:
                  owner: { to_one: Person, inverse: projects }
                  tasks: { to_many: Task, nested: true, inverse: project }
              Task:
                source: false
                attributes: { id: int, projectId: int }
                relationships:
                  project: { to_one: Project, inverse: tasks }
            """)
        #expect(
            MermaidDiagram.render(model) == """
                erDiagram
                    Person {
                        int id PK
                    }
                    Project {
                        int id PK
                        int owner_id FK
                    }
                    Task {
                        int id PK
                        int project_id FK "projectId"
                    }
                    Person ||--o{ Project : projects
                    Project ||--o{ Task : tasks

                """)
    }

    @Test("names Mermaid cannot take are cleaned; labels that are not one word are quoted")
    func cleaning() {
        let mark = Mark(file: "x.yml", line: 1, column: 1)
        var entity = EntityMapping(
            name: "Odd", element: "odd", collection: "odds", path: "odds", identity: [], file: "x.yml", mark: mark)
        entity.attributes = [
            AttributeMapping(name: "first", type: .string, keyPath: ["1st col"], column: "1st col", mark: mark)
        ]
        entity.relationships = [
            RelationshipMapping(name: "self-link", kind: .toOne, destination: "Odd", keyPath: ["x"], mark: mark)
        ]
        #expect(
            MermaidDiagram.render(MappingModel(entities: [entity])) == """
                erDiagram
                    Odd {
                        string _1st_col "first"
                    }
                    Odd }o--o| Odd : "self-link"

                """)
    }
}
