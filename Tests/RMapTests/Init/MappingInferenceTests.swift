import RMap
import RMapAuthoring
import RMapHTTP
import Testing

@Suite("rmap init: MappingInference")
struct MappingInferenceTests {
    /// The mapping inferred from payloads (origin path -> JSON text).
    static func infer(_ payloads: [(String, String)], prefix: String = "") throws -> InferredMapping {
        let samples = try payloads.map { path, text in
            PayloadSample(
                origin: path.hasPrefix("http") ? .url(path) : .file(path),
                document: try JSONReader.parse(text, origin: path))
        }
        return MappingInference(prefix: prefix).infer(samples)
    }

    /// The plugins `rmap` offers for files: the standard ones and http.
    static let catalog: PluginCatalog = {
        let registry = PluginRegistry.standard()
        registry.registerHTTP()
        return registry.catalog
    }()

    /// The inferred mapping written and loaded back, as `rmap validate` would.
    static func load(_ mapping: InferredMapping) throws -> MappingModel {
        let text = MappingWriter(folder: "/work/mappings", currentDirectory: "/work").text(mapping)
        return try MappingLoader(environment: [:], catalog: catalog).load(documents: [("/work/mappings/init.yml", text)]
        )
    }

    @Test(
        "entities are named from the root key, the file name or the URL path, singular and prefixed",
        arguments: [
            ("data/people.json", #"[{"id": 1}]"#, "CRMPerson"),
            ("data/export.json", #"{"octopi": [{"id": 1}]}"#, "CRMOctopus"),
            ("data/dump.json", #"[{"person": {"id": 1}}, {"person": {"id": 2}}]"#, "CRMPerson"),
            ("data/get-repository.json", #"{"id": 1, "name": "x"}"#, "CRMRepository"),
            ("data/issues-page-1.json", #"[{"id": 1}]"#, "CRMIssue"),
            ("http://127.0.0.1:3000/people/1/projects.json", #"[{"id": 1}]"#, "CRMProject"),
        ])
    func entityNames(path: String, json: String, entity: String) throws {
        let mapping = try Self.infer([(path, json)], prefix: "CRM")
        #expect(mapping.entities.map(\.name) == [entity])
        #expect(try Self.load(mapping).entity(named: entity) != nil)
    }

    @Test("attributes: inferred types, required only when no record lacks the key or holds null")
    func attributes() throws {
        let mapping = try Self.infer([
            (
                "people.json",
                #"""
                [{"id": 1, "first_name": "Ada", "born_on": "1985-12-10", "budget": "12.50", "tags": ["a"], "nick": null},
                 {"id": 2, "first_name": "Alan", "born_on": "1982-06-23", "tags": [], "nick": "al"}]
                """#
            )
        ])
        let entity = try #require(try Self.load(mapping).entity(named: "Person"))
        let types = entity.attributes.map { "\($0.name):\($0.type)\($0.required ? "!" : "")" }
        #expect(
            types == [
                "id:int!", "firstName:string!", "bornOn:date!", "budget:decimal", "tags:[string]!", "nick:string",
            ])
        #expect(entity.identity == ["id"])
    }

    @Test("without id, the one key whose values are all present and distinct is the identity")
    func uniqueKey() throws {
        let mapping = try Self.infer([("users.json", #"[{"login": "a", "kind": "x"}, {"login": "b", "kind": "x"}]"#)])
        #expect(mapping.entities[0].identity == "login")
    }

    @Test("without one unique key, every key present in each record identifies it together; the mapping loads")
    func compositeIdentity() throws {
        let two = try Self.infer([("users.json", #"[{"a": "1", "b": "2", "n": null}, {"a": "3", "b": "4"}]"#)])
        #expect(two.entities[0].identity == nil)
        #expect(two.entities[0].compositeIdentity == ["a", "b"])
        #expect(two.notes.contains(.unsure("User: no one key tells the records apart; identity [a, b] together")))
        #expect(try Self.load(two).entity(named: "User")?.identity == ["a", "b"])
        // One record: every key is unique, none tells records apart.
        let one = try Self.infer([("request.json", #"{"method": "patch", "path": "/labels/x", "ratio": 0.5}"#)])
        #expect(one.entities[0].compositeIdentity == ["method", "path"])
        let none = try Self.infer([("users.json", #"[{"a": "1"}, {"b": "2"}]"#)])
        #expect(none.entities[0].compositeIdentity == [])
        #expect(
            none.notes.contains(
                .unsure("User: no identity (no key holds a value in every record); declare 'identity:' before a run")))
    }

    @Test("an object without id is flattened into key-path attributes; an irregular one is json")
    func objectsWithoutIdentity() throws {
        let mapping = try Self.infer([
            ("people.json", #"[{"id": 1, "address": {"city": "London"}, "reactions": {"+1": 2, "url": "x"}}]"#)
        ])
        let entity = try #require(try Self.load(mapping).entity(named: "Person"))
        #expect(entity.attribute(named: "addressCity")?.keyPath == ["address", "city"])
        #expect(entity.attribute(named: "addressCity")?.column == "address_city")
        #expect(entity.attribute(named: "reactions")?.type == .json)
    }

    @Test("nested objects with id: a nested relationship, the child's parent key its inverse, one entity per shape")
    func nested() throws {
        let mapping = try Self.infer([
            (
                "projects.json",
                #"""
                {"projects": [
                  {"id": 1, "owner": {"id": 7, "login": "ada"}, "reviewer": {"id": 8, "login": "al"},
                   "tasks": [{"id": 10, "project_id": 1}, {"id": 11, "project_id": 1}]}]}
                """#
            )
        ])
        let model = try Self.load(mapping)
        let project = try #require(model.entity(named: "Project"))
        #expect(project.relationship(named: "tasks")?.nested == true)
        #expect(project.relationship(named: "tasks")?.inverse == "project")
        #expect(project.relationship(named: "owner")?.destination == "Owner")
        #expect(project.relationship(named: "reviewer")?.destination == "Owner")
        #expect(model.entity(named: "Task")?.relationship(named: "project")?.connection == nil)
        #expect(model.entity(named: "Task")?.source == nil)
        #expect(mapping.notes.contains(.inferred("Project.reviewer: the same objects as Owner")))
    }

    @Test("*_id and *_ids keys connect by foreign key to the entity they name, when the values are its identities")
    func foreignKeys() throws {
        let mapping = try Self.infer([
            ("people.json", #"[{"id": 1}, {"id": 2}, {"id": 3}]"#),
            (
                "projects.json",
                #"[{"id": 1, "person_id": 2, "member_ids": [1, 3], "account_id": 9}, {"id": 2, "person_id": 3, "member_ids": []}]"#
            ),
        ])
        let model = try Self.load(mapping)
        let project = try #require(model.entity(named: "Project"))
        let owner = try #require(project.relationship(named: "person"))
        #expect(owner.kind == .toOne && owner.destination == "Person" && owner.inverse == "projects")
        #expect(Self.pairs(owner) == ["personId=id"])
        let members = try #require(project.relationship(named: "members"))
        #expect(members.kind == .toMany && members.destination == "Person")
        #expect(Self.pairs(members) == ["memberIds=id"])
        #expect(project.relationship(named: "account") == nil)
        #expect(model.entity(named: "Person")?.relationship(named: "projects")?.inverse == "person")
        #expect(
            mapping.notes.contains(
                .unsure("Project.memberIds: no entity Member; connected to Person, which holds every value")))
        #expect(
            mapping.notes.contains(
                .unsure("Project.accountId: no entity Account, and no entity holds its values; not connected")))
    }

    @Test("a type key with class names is a commented type_key candidate")
    func typeKey() throws {
        let mapping = try Self.infer([("people.json", #"[{"id": 1, "type": "Admin"}, {"id": 2, "type": "Person"}]"#)])
        #expect(mapping.entities[0].typeKey?.key == "type")
        #expect(mapping.entities[0].typeKey?.values == ["Admin", "Person"])
        let text = MappingWriter(folder: "/w", currentDirectory: "/w").text(mapping)
        #expect(
            text.contains(
                "    # type_key: type  # check: values Admin, Person; declare sub-entities (extends) to use it\n"))
        #expect(try Self.load(mapping).entity(named: "Person")?.typeKey == nil)
    }

    @Test("a foreign key connects when most of its values are identities, the unmatched counted in a comment")
    func mostValuesMatch() throws {
        let mapping = try Self.infer([
            ("people.json", #"[{"id": 1}, {"id": 2}, {"id": 3}]"#),
            (
                "projects.json",
                #"[{"id": 1, "person_id": 1, "reviewer_ids": [2, 3, 8], "team_id": 7}, {"id": 2, "person_id": 2, "reviewer_ids": [1]}, {"id": 3, "person_id": 9}, {"id": 4, "team_id": 1}]"#
            ),
        ])
        let text = MappingWriter(folder: "/w", currentDirectory: "/w").text(mapping)
        #expect(
            text.contains(
                "      person: { to_one: Person, inverse: projects, connect: { foreign_key: { personId: id } } }  # check: 1 of 3 values are no identity of Person\n"
            ))
        #expect(
            text.contains(
                "      reviewers: { to_many: Person, connect: { foreign_key: { reviewerIds: id } } }  # check: 1 of 4 values are no identity of Person\n"
            ))
        #expect(
            mapping.notes.contains(
                .unsure("Project.personId: connected to Person, though 1 of 3 values are no identity there")))
        #expect(
            mapping.notes.contains(
                .unsure("Project.reviewerIds: no entity Reviewer; connected to Person, which holds 3 of 4 values")))
        // Half is not most: team_id's 7 and 1 stay a plain attribute.
        #expect(!text.contains("team:"))
        let model = try Self.load(mapping)
        #expect(model.entity(named: "Project")?.relationship(named: "person")?.destination == "Person")
    }

    @Test("a nested to-one gets a to-many inverse on the entity it shares with another payload")
    func nestedToOneInverse() throws {
        let mapping = try Self.infer(
            [
                ("users.json", #"[{"id": 1, "login": "ada"}, {"id": 2, "login": "bob"}]"#),
                (
                    "repos.json",
                    #"[{"id": 10, "owner": {"id": 1, "login": "ada"}, "reviewer": {"id": 2, "login": "bob"}}]"#
                ),
            ], prefix: "GH")
        #expect(mapping.entities.map(\.name) == ["GHUser", "GHRepo"])
        let model = try Self.load(mapping)
        let owner = try #require(model.entity(named: "GHRepo")?.relationship(named: "owner"))
        #expect(owner.nested && owner.destination == "GHUser" && owner.inverse == "repos")
        let repos = try #require(model.entity(named: "GHUser")?.relationship(named: "repos"))
        #expect(repos.kind == .toMany && repos.destination == "GHRepo" && repos.inverse == "owner")
        // The name is taken by the first: the second nested key has no inverse.
        #expect(model.entity(named: "GHRepo")?.relationship(named: "reviewer")?.inverse == nil)
    }

    @Test("sources: files relative to the mapping's folder; URLs as http with site, path, suffix and params")
    func sources() throws {
        let mapping = try Self.infer([
            ("samples/people.json", #"[{"id": 1}]"#),
            ("https://api.example.com/repos/o/r/issues?per_page=3&access_token=abc", #"[{"id": 1}]"#),
        ])
        let text = MappingWriter(folder: "/work/mappings", currentDirectory: "/work").text(mapping)
        #expect(text.contains("    source: { plugin: file, path: ../samples/people.json }\n"))
        #expect(
            text.contains(
                #"    source: { plugin: http, site: "https://api.example.com", suffix: "", paginate: page, page_size: 3, params: { access_token: "${ACCESS_TOKEN}" } }"#
                    + "\n    path: repos/o/r/issues\n"))
        #expect(!text.contains("abc") && !mapping.notes.contains { $0.message.contains("abc") })
        #expect(
            mapping.notes.contains(
                .inferred("Issue: 1 records in https://api.example.com/repos/o/r/issues?per_page=3&access_token=***")))
        let model = try MappingLoader(environment: ["ACCESS_TOKEN": "abc"], catalog: Self.catalog).load(documents: [
            ("/work/mappings/init.yml", text)
        ])
        #expect(model.entity(named: "Issue")?.path == "repos/o/r/issues")
    }

    @Test(
        "paging parameters in a URL become the http source's paging, not params frozen on one page",
        arguments: [
            ("people.json?limit=10&offset=20&active=true", #"page_size: 10, params: { active: "true" }"#),
            ("people.json?page=2&per_page=30", "paginate: page, page_size: 30"),
            ("people/?page_size=50&page=3", #"suffix: "", paginate: page, page_size: 50, size_param: page_size"#),
            ("people.json?page=2", "paginate: page"),
            ("people.json?sort=name", "params: { sort: name }"),
        ])
    func urlPaging(url: String, keys: String) async throws {
        let mapping = try Self.infer([("http://127.0.0.1:3000/" + url, #"[{"id": 1}]"#)])
        let text = MappingWriter(folder: "/work/mappings", currentDirectory: "/work").text(mapping)
        #expect(
            text.contains(#"    source: { plugin: http, site: "http://127.0.0.1:3000", "# + keys + " }\n"), "\(text)")
        // The http source accepts what was written.
        let registry = PluginRegistry.standard()
        registry.registerHTTP()
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [
            ("/work/mappings/init.yml", text)
        ])
        let source = try #require(model.entity(named: "Person")?.source)
        _ = try registry.makeSource(source, model: model)
    }

    @Test("a Rails nested route is fetched as given, with a note naming the nested_path that fetches every parent's")
    func nestedRoute() throws {
        let mapping = try Self.infer([("http://127.0.0.1:3000/people/1/projects.json", #"[{"id": 1, "person_id": 1}]"#)]
        )
        #expect(
            mapping.notes.contains(
                .unsure(
                    "Project: fetched from people/1/projects only; 'nested_path: people/{personId}/projects' would fetch it for every parent"
                )))
        #expect(try Self.load(mapping).entity(named: "Project")?.path == "people/1/projects")
    }

    @Test("a nested key whose relationship name an attribute already has is left out, with a note")
    func takenName() throws {
        let mapping = try Self.infer([("projects.json", #"[{"id": 1, "Tasks": "x", "tasks": [{"id": 2}]}]"#)])
        #expect(mapping.notes.contains(.unsure("Project.tasks: the name 'tasks' is taken; not mapped")))
        let project = try #require(try Self.load(mapping).entity(named: "Project"))
        #expect(project.attribute(named: "tasks")?.key == "Tasks")
        #expect(project.relationships.isEmpty)
    }

    /// A connection's foreign-key pairs as `source=destination`.
    static func pairs(_ relationship: RelationshipMapping) -> [String] {
        guard case .foreignKey(let pairs)? = relationship.connection?.rule else { return [] }
        return pairs.map { "\($0.source)=\($0.destination)" }
    }
}
