import RMap
import RMapHTTP
import Testing

/// The model part of JSON:API: each entity's resource type, and for each relationship left to
/// linkage the hidden attributes and the foreign-key connection on them.
@Suite("JSON:API relationships in the model")
struct JSONAPIRelationshipsTests {
    /// Loads `yaml` after a JSON:API source and `naming:` (four lines, so entities start on line 5).
    static func load(_ yaml: String, naming: String = "{entity_prefix: CRM}") throws(MappingError) -> MappingModel {
        let header = """
            rmap: 1
            source: {plugin: http, site: "http://127.0.0.1:1", format: jsonapi}
            naming: \(naming)

            """
        let registry = PluginRegistry()
        registry.registerHTTP()
        return try MappingLoader(environment: [:], catalog: registry.catalog)
            .load(documents: [("mappings/crm.yml", header + yaml)])
    }

    static func issues(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test("a to-one keeps its linkage in <name>Id and connects on it")
    func toOne() throws {
        let model = try Self.load(
            """
            entities:
              CRMPerson: {attributes: {id: int}}
              CRMProject:
                attributes: {id: int, name: string}
                relationships: {owner: {to_one: CRMPerson}}
            """)
        let project = try #require(model.entity(named: "CRMProject"))
        let hidden = try #require(project.attribute(named: "ownerId"))
        #expect(hidden.type == .int && hidden.keyPath == ["owner", "id"] && hidden.column == "owner_id")
        let owner = try #require(project.relationship(named: "owner"))
        guard case .foreignKey(let pairs) = owner.connection?.rule else {
            Issue.record("no foreign key: \(String(describing: owner.connection))")
            return
        }
        #expect(pairs.map { "\($0.source)->\($0.destination)" } == ["ownerId->id"])
        #expect(
            project.jsonAPI?.linkages == [
                JSONAPILinkage(
                    relationship: "owner", member: "owner", kind: .toOne, destination: "CRMPerson", ids: "ownerId")
            ])
        #expect(project.jsonAPI?.type == "projects")
        #expect(model.entity(named: "CRMPerson")?.jsonAPI?.linkages == [])
    }

    @Test("a to-many keeps an array of ids under its member; a destination with sub-entities adds the types")
    func toManyAndPolymorphic() throws {
        let kebab = try Self.load(
            """
            entities:
              CRMParty: {attributes: {id: string}}
              CRMCompany: {extends: CRMParty}
              CRMProjectTask:
                attributes: {id: int}
                relationships:
                  teamMembers: {to_many: CRMParty}
                  sponsor: {to_one: CRMParty}
            """, naming: "{entity_prefix: CRM, attributes: kebab_case}")
        let task = try #require(kebab.entity(named: "CRMProjectTask"))
        #expect(task.jsonAPI?.type == "project-tasks")
        let ids = try #require(task.attribute(named: "teamMemberIds"))
        #expect(
            ids.type == .array(.string) && ids.keyPath == ["team-members", "ids"] && ids.column == "team_member_ids")
        let types = try #require(task.attribute(named: "teamMemberTypes"))
        #expect(types.type == .array(.string) && types.keyPath == ["team-members", "types"])
        let sponsorType = try #require(task.attribute(named: "sponsorType"))
        #expect(sponsorType.type == .string && sponsorType.column == "sponsor_type")
        #expect(task.jsonAPI?.linkage(of: "teamMembers")?.types == "teamMemberTypes")
        #expect(kebab.entity(named: "CRMCompany")?.jsonAPI?.type == "companies")
    }

    @Test("of two inverses left to linkage the to-one connects; connect: and nested: stay as written")
    func whichSideConnects() throws {
        let model = try Self.load(
            """
            entities:
              CRMPerson:
                attributes: {id: int}
                relationships:
                  projects: {to_many: CRMProject, inverse: owner}
                  notes: {to_many: CRMNote, nested: true}
              CRMProject:
                attributes: {id: int, personId: int}
                relationships:
                  owner: {to_one: CRMPerson}
                  lead: {to_one: CRMPerson, connect: {foreign_key: {personId: id}}}
              CRMNote: {attributes: {id: int}}
            """)
        let person = try #require(model.entity(named: "CRMPerson"))
        #expect(person.relationship(named: "projects")?.connection == nil)
        #expect(person.relationship(named: "notes")?.connection == nil)
        #expect(person.attributes.map(\.name) == ["id"])
        let project = try #require(model.entity(named: "CRMProject"))
        #expect(project.attributes.map(\.name) == ["id", "personId", "ownerId"])
        #expect(project.jsonAPI?.linkages.map(\.relationship) == ["owner"])
    }

    @Test("two to-manys that are each other's inverse: one side connects, the same on every load")
    func manyToMany() throws {
        let model = try Self.load(
            """
            entities:
              CRMPerson:
                attributes: {id: int}
                relationships: {memberOf: {to_many: CRMProject, inverse: teamMembers}}
              CRMProject:
                attributes: {id: int}
                relationships: {teamMembers: {to_many: CRMPerson}}
            """)
        #expect(model.entity(named: "CRMPerson")?.jsonAPI?.linkages.map(\.relationship) == ["memberOf"])
        #expect(model.entity(named: "CRMProject")?.jsonAPI?.linkages == [])
    }

    @Test("a sub-entity shares its parent's hidden attributes and linkage")
    func inherited() throws {
        let model = try Self.load(
            """
            entities:
              CRMPerson:
                attributes: {id: int}
                relationships: {manager: {to_one: CRMPerson}}
              CRMAdmin: {extends: CRMPerson}
            """)
        #expect(model.entity(named: "CRMAdmin")?.attribute(named: "managerId")?.column == "manager_id")
        #expect(model.entity(named: "CRMAdmin")?.jsonAPI?.linkages.map(\.relationship) == ["manager"])
        #expect(model.entity(named: "CRMAdmin")?.jsonAPI?.type == "admins")
    }

    @Test("an entity without a source of its own that a JSON:API entity reaches is one of that source's resources")
    func reached() throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [
            (
                "crm.yml",
                """
                rmap: 1
                entities:
                  Project:
                    source: {plugin: http, site: "http://127.0.0.1:1", format: jsonapi}
                    attributes: {id: int}
                    relationships: {tasks: {to_many: Task}}
                  Task:
                    source: false
                    attributes: {id: int}
                    relationships: {assignee: {to_one: Person}}
                  Person: {source: false, attributes: {id: int}}
                  Admin: {extends: Person}
                  Note: {source: false, attributes: {id: int}}
                """
            )
        ])
        let project = try #require(model.entity(named: "Project")?.source)
        #expect(
            ["Task", "Person", "Admin"].map { model.entity(named: $0)?.jsonAPI?.source } == [project, project, project])
        #expect(model.entity(named: "Task")?.jsonAPI?.linkages.map(\.ids) == ["assigneeId"])
        #expect(model.entity(named: "Note")?.jsonAPI == nil)
    }

    @Test("a Rails source's relationship without connect is still an error; a JSON:API one is not")
    func onlyJSONAPIEntitiesConnectByLinkage() {
        let rails = """
            rmap: 1
            source: {plugin: http, site: "http://127.0.0.1:1"}
            entities:
              Person: {attributes: {id: int}}
              Project:
                attributes: {id: int}
                relationships: {owner: {to_one: Person}}
            """
        let registry = PluginRegistry()
        registry.registerHTTP()
        #expect(throws: MappingError.self) {
            try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [("crm.yml", rails)])
        }
        #expect(
            Self.issues(
                """
                entities:
                  CRMPerson: {attributes: {id: int}}
                  CRMProject:
                    attributes: {id: int}
                    relationships: {owner: {to_one: CRMPerson}}
                """) == [])
    }

    @Test(
        "mistakes name their place",
        arguments: [
            (
                "entities:\n  CRMPerson: {identity: email, attributes: {id: int, email: string}}\n",
                "mappings/crm.yml:5:3: 'CRMPerson' has a JSON:API source: its identity must be one attribute read from the resource's 'id' (e.g. id: int), found email"
            ),
            (
                "entities:\n  CRMPerson: {attributes: {id: int}}\n  CRMProject:\n    attributes: {id: int, ownerId: int}\n    relationships: {owner: {to_one: CRMPerson}}\n",
                "mappings/crm.yml:7:27: 'CRMProject.owner' keeps its JSON:API linkage in attribute 'ownerId' (column owner_id), which 'CRMProject' declares itself: rename this attribute, or give the relationship a connect: of its own"
            ),
            (
                "entities:\n  CRMPerson: {unknown_type: skipp, attributes: {id: int}}\n",
                "mappings/crm.yml:5:29: 'unknown_type' must be one of reject, skip, found 'skipp' (did you mean 'skip'?)"
            ),
        ])
    func mistakes(yaml: String, issue: String) {
        #expect(Self.issues(yaml) == [issue])
    }

    @Test("unknown_type on an entity without a type_key that no JSON:API source reads is an error at the key")
    func unknownTypeNeedsJSONAPI() {
        let yaml = """
            rmap: 1
            entities:
              Person: {unknown_type: skip, attributes: {id: int}}
            """
        #expect(
            LoaderHarness.issues(yaml) == [
                "mappings/crm.yml:3:26: 'unknown_type' of 'Person' needs a 'type_key' or a JSON:API source (format: jsonapi): without either no record names its type"
            ])
    }
}
