import RMap
import Testing

@Suite("Names resolved by the loader")
struct NameResolutionTests {
    private func entity(_ name: String, in yaml: String) throws -> EntityMapping {
        try #require(try LoaderHarness.load(yaml).entity(named: name))
    }

    // MARK: - Entities

    @Test(arguments: [
        ("CRM", "CRMPerson", "person", "people"),
        ("AR", "ARPostComment", "post_comment", "post_comments"),
        ("", "HTTPResponse", "http_response", "http_responses"),
        ("CRM", "CRMOctopus", "octopus", "octopi"),
        ("CRM", "CRMPeople", "person", "people"),
        ("CRM", "Address", "address", "addresses"),
        ("", "CRM", "crm", "crms"),
    ])
    func elementAndCollectionDefaults(prefix: String, name: String, element: String, collection: String) throws {
        let entity = try entity(
            name, in: "rmap: 1\nnaming: {entity_prefix: \"\(prefix)\"}\nentities:\n  \(name): {attributes: {id: int}}\n"
        )
        #expect(entity.element == element)
        #expect(entity.collection == collection)
        #expect(entity.path == collection)
    }

    @Test func declaredNamesWin() throws {
        let entity = try entity(
            "CRMPerson",
            in:
                "rmap: 1\nentities:\n  CRMPerson: {element: human, collection: humans, path: api/humans, attributes: {id: int}}\n"
        )
        #expect((entity.element, entity.collection, entity.path) == ("human", "humans", "api/humans"))
    }

    @Test func declaredElementDrivesTheCollection() throws {
        let entity = try entity("Thing", in: "rmap: 1\nentities:\n  Thing: {element: person, attributes: {id: int}}\n")
        #expect((entity.collection, entity.path) == ("people", "people"))
    }

    @Test func inflectionsFromTheFile() throws {
        let yaml = """
            rmap: 1
            naming: {entity_prefix: CRM}
            inflections:
              irregular: {cactus: cacti}
              uncountable: [equipment]
              acronyms: [API]
            entities:
              CRMCactus: {attributes: {id: int}}
              CRMEquipment: {attributes: {id: int}}
              CRMAPIKey: {attributes: {id: int, apiURL: string}}
            """
        let model = try LoaderHarness.load(yaml)
        #expect(model.entity(named: "CRMCactus")?.collection == "cacti")
        #expect(model.entity(named: "CRMEquipment")?.collection == "equipment")
        #expect(model.entity(named: "CRMAPIKey")?.element == "api_key")
        #expect(model.entity(named: "CRMAPIKey")?.attribute(named: "apiURL")?.keyPath == ["api_url"])
        #expect(Inflector().underscore("APIKey") == "api_key")
        #expect(Inflector().pluralize("equipment") == "equipment")
        #expect(Inflector().pluralize("cactus") == "cactus")
    }

    @Test func acronymChangesTheElement() throws {
        let yaml = "rmap: 1\ninflections: {acronyms: [HTTPS]}\nentities:\n  HTTPSCheck: {attributes: {id: int}}\n"
        #expect(try entity("HTTPSCheck", in: yaml).element == "https_check")
        #expect(
            try entity("HTTPSCheck", in: "rmap: 1\nentities:\n  HTTPSCheck: {attributes: {id: int}}\n").element
                == "https_check")
    }

    @Test func recordsKeyPathAndPolicies() throws {
        let entity = try entity(
            "P",
            in:
                "rmap: 1\nnaming: {root: bare}\nentities:\n  P: {records: data.items, push: {method: patch}, on_conflict: remote, orphans: delete, sort: [name, id desc], attributes: {id: int, name: string}}\n"
        )
        #expect(entity.records == ["data", "items"])
        #expect(entity.pushMethod == .patch)
        #expect(entity.onConflict == .remote)
        #expect(entity.orphans == .delete)
        #expect(entity.root == .bare)
        #expect(
            entity.sort == [SortKey(attribute: "name", descending: false), SortKey(attribute: "id", descending: true)])
    }

    @Test func policyDefaults() throws {
        let entity = try entity("P", in: "rmap: 1\nentities:\n  P: {attributes: {id: int}}\n")
        #expect(entity.records == nil)
        #expect(entity.pushMethod == .put)
        #expect(entity.onConflict == .fail)
        #expect(entity.orphans == .keep)
        #expect(entity.root == .auto)
        #expect(entity.mark == Mark(file: "mappings/crm.yml", line: 3, column: 3))
    }

    // MARK: - Attributes

    @Test(arguments: [
        ("snake_case", "firstName", "first_name"),
        ("snake_case", "teamMemberIds", "team_member_ids"),
        ("snake_case", "id", "id"),
        ("camel_case", "firstName", "firstName"),
        ("camel_case", "first_name", "firstName"),
        ("as_is", "firstName", "firstName"),
        ("as_is", "First-Name", "First-Name"),
    ])
    func attributeKeysFollowTheNaming(naming: String, name: String, key: String) throws {
        let yaml =
            "rmap: 1\nnaming: {attributes: \(naming)}\nentities:\n  P: {identity: \(name), attributes: {\(name): string}}\n"
        let attribute = try #require(try entity("P", in: yaml).attribute(named: name))
        #expect(attribute.keyPath == [key])
        #expect(attribute.column == key)
    }

    @Test(
        "kebab_case dasherizes attribute and relationship keys; columns and join tables stay underscored",
        arguments: [("firstName", "first-name", "first_name"), ("bornOn", "born-on", "born_on"), ("id", "id", "id")])
    func kebabCase(name: String, key: String, column: String) throws {
        let yaml = """
            rmap: 1
            naming: {attributes: kebab_case}
            entities:
              P:
                identity: id
                attributes: {id: int, \(name == "id" ? "" : "\(name): string,") teamMemberIds: [int]}
                relationships:
                  teamMembers: {to_many: P, connect: {foreign_key: {teamMemberIds: id}}}
            """
        let model = try LoaderHarness.load(yaml)
        let entity = try #require(model.entity(named: "P"))
        let attribute = try #require(entity.attribute(named: name))
        #expect(attribute.keyPath == [key])
        #expect(attribute.column == column)
        #expect(entity.relationship(named: "teamMembers")?.keyPath == ["team-members"])
        let layout = StoreLayout(schema: GraphSchema(model: model))
        #expect(layout.joinTables.map(\.name) == ["ps_team_members"])
        #expect(layout.joinTables.first?.columns.map(\.name) == ["p_id", "team_member_id"])
    }

    @Test func keyPathsAndColumns() throws {
        let yaml = """
            rmap: 1
            entities:
              P:
                attributes:
                  id: int
                  city: {key: address.city}
                  lampOn: {key: [lamp.enabled], type: bool}
                  deep: {key: [a, b.c]}
            """
        let entity = try entity("P", in: yaml)
        let city = try #require(entity.attribute(named: "city"))
        #expect(city.keyPath == ["address", "city"])
        #expect(city.column == "address_city")
        #expect(city.type == .string)
        #expect(city.key == "address.city")
        let lamp = try #require(entity.attribute(named: "lampOn"))
        #expect(lamp.keyPath == ["lamp.enabled"])
        #expect(lamp.column == "lamp_enabled")
        #expect(lamp.type == .bool)
        #expect(entity.attribute(named: "deep")?.keyPath == ["a", "b.c"])
        #expect(entity.attribute(named: "deep")?.column == "a_b_c")
    }

    @Test func attributeOptions() throws {
        let yaml = """
            rmap: 1
            entities:
              P:
                attributes:
                  id: int
                  email: {type: string, required: true}
                  tags: [string]
                  seenAt: {type: datetime, format: epoch_ms}
                  paidOn: {type: date, format: dd/MM/yyyy}
                  status: {type: string, map: {A: active, I: inactive}}
                  score: {type: double, default: 0}
                  notes: {type: string, readonly: true}
                  raw: json
                  slug: {type: string, transform: [trim, lowercase]}
                  plain:
            """
        let entity = try entity("P", in: yaml)
        #expect(
            entity.attributes.map(\.name) == [
                "id", "email", "tags", "seenAt", "paidOn", "status", "score", "notes", "raw", "slug", "plain",
            ])
        #expect(entity.attribute(named: "email")?.required == true)
        #expect(entity.attribute(named: "id")?.required == false)
        #expect(entity.attribute(named: "tags")?.type == .array(.string))
        #expect(entity.attribute(named: "seenAt")?.format == .epochMilliseconds)
        #expect(entity.attribute(named: "paidOn")?.format == .pattern("dd/MM/yyyy"))
        #expect(
            entity.attribute(named: "status")?.valueMap == [
                ValueMapEntry(remote: "A", local: "active"), ValueMapEntry(remote: "I", local: "inactive"),
            ])
        #expect(entity.attribute(named: "score")?.defaultValue == .double(0))
        #expect(entity.attribute(named: "notes")?.readonly == true)
        #expect(entity.attribute(named: "raw")?.type == .json)
        #expect(entity.attribute(named: "slug")?.transforms == ["trim", "lowercase"])
        #expect(entity.attribute(named: "plain")?.type == .string)
        #expect(entity.attribute(named: "email")?.mark == Mark(file: "mappings/crm.yml", line: 6, column: 7))
    }

    @Test(arguments: [
        "string", "int", "double", "decimal", "bool", "date", "datetime", "url", "uuid", "json", "[int]", "[date]",
    ])
    func everyTypeName(type: String) throws {
        let yaml = "rmap: 1\nentities:\n  P: {attributes: {id: int, x: {type: \"\(type)\"}}}\n"
        #expect(try entity("P", in: yaml).attribute(named: "x")?.type.description == type)
    }

    @Test func defaultIdentityIsID() throws {
        #expect(
            try entity("P", in: "rmap: 1\nentities:\n  P: {attributes: {name: string, id: int}}\n").identity == ["id"])
        let composite = try entity(
            "P", in: "rmap: 1\nentities:\n  P: {identity: [region, code], attributes: {region: string, code: string}}\n"
        )
        #expect(composite.identity == ["region", "code"])
    }

    // MARK: - Inheritance and types

    static let people = """
        rmap: 1
        naming: {entity_prefix: CRM}
        source: {plugin: file, path: "{collection}.json"}
        entities:
          CRMPerson:
            identity: uid
            type_key: type
            attributes: {uid: int, name: string, email: string}
            relationships:
              boss: {to_one: CRMPerson, connect: {foreign_key: {uid: uid}}}
          CRMAdmin:
            extends: CRMPerson
            attributes: {email: {type: string, required: true}, level: int}
          CRMSuperAdmin:
            extends: CRMAdmin
          CRMGuest:
            extends: CRMPerson
            source: {plugin: file, path: guests.json}
        """

    @Test func subEntitiesInheritAttributesRelationshipsAndIdentity() throws {
        let model = try LoaderHarness.load(Self.people)
        let admin = try #require(model.entity(named: "CRMAdmin"))
        #expect(admin.parent == "CRMPerson")
        #expect(admin.attributes.map(\.name) == ["uid", "name", "email", "level"])
        #expect(admin.attribute(named: "email")?.required == true)
        #expect(admin.identity == ["uid"])
        #expect(admin.typeKey == "type")
        #expect(admin.relationship(named: "boss")?.destination == "CRMPerson")
        #expect(admin.element == "admin")
        #expect(admin.collection == "admins")
        let superAdmin = try #require(model.entity(named: "CRMSuperAdmin"))
        #expect(superAdmin.attributes.map(\.name) == ["uid", "name", "email", "level"])
        #expect(model.root(of: superAdmin).name == "CRMPerson")
    }

    @Test func subEntitiesArriveInTheirParentsPayloads() throws {
        let model = try LoaderHarness.load(Self.people)
        #expect(model.entity(named: "CRMPerson")?.source?["path"]?.scalar?.text == "{collection}.json")
        #expect(model.entity(named: "CRMAdmin")?.source == nil)
        #expect(model.entity(named: "CRMGuest")?.source?["path"]?.scalar?.text == "guests.json")
    }

    @Test func typesDefaultToFamilyNamesWithoutThePrefix() throws {
        let model = try LoaderHarness.load(Self.people)
        #expect(
            model.entity(named: "CRMPerson")?.types == [
                "Person": "CRMPerson", "Admin": "CRMAdmin", "SuperAdmin": "CRMSuperAdmin", "Guest": "CRMGuest",
            ])
        #expect(model.entity(named: "CRMAdmin")?.types == ["Admin": "CRMAdmin", "SuperAdmin": "CRMSuperAdmin"])
        #expect(model.entity(named: "CRMGuest")?.types == ["Guest": "CRMGuest"])
    }

    @Test func declaredTypesAddToTheDefaults() throws {
        let yaml = Self.people.replacingOccurrences(
            of: "    type_key: type\n",
            with: "    type_key: type\n    types: {admin_user: CRMAdmin, Person: CRMGuest}\n")
        let types = try #require(try LoaderHarness.load(yaml).entity(named: "CRMPerson")?.types)
        #expect(types["admin_user"] == "CRMAdmin")
        #expect(types["Admin"] == "CRMAdmin")
        #expect(types["Person"] == "CRMGuest")
    }

    @Test func sourceFalseMeansNestedOnly() throws {
        let yaml =
            "rmap: 1\nsource: {plugin: file, path: \"{collection}.json\"}\nentities:\n  T: {source: false, attributes: {id: int}}\n  U: {source: {plugin: stdin, entity: U}, attributes: {id: int}}\n"
        let model = try LoaderHarness.load(yaml)
        #expect(model.entity(named: "T")?.source == nil)
        #expect(model.entity(named: "U")?.source?.plugin == "stdin")
        #expect(model.entity(named: "U")?.source?.baseDirectory == "mappings")
    }

    // MARK: - Relationships

    static let crm = """
        rmap: 1
        naming: {entity_prefix: CRM}
        entities:
          CRMPerson:
            attributes: {id: int, active: bool}
            relationships:
              projects: {to_many: CRMProject, inverse: owner}
          CRMProject:
            attributes: {id: int, personId: int, teamMemberIds: [int], archived: bool, budget: decimal}
            relationships:
              owner: {to_one: CRMPerson, connect: {foreign_key: {personId: id}}}
              teamMembers:
                to_many: CRMPerson
                assignment: union
                connect:
                  foreign_key: {teamMemberIds: id}
                  include_subentities: false
                  when: {archived: false, budget: {ge: "100.50"}, personId: {null: false}}
                  where: {active: true, id: [1, 2]}
              tasks: {to_many: CRMTask, nested: true, key: todo_items}
              lead: {to_one: CRMPerson, connect: {key_path: owner}}
          CRMTask:
            attributes: {id: int}
            relationships:
              project: {to_one: CRMProject, inverse: tasks}
        """

    @Test func reciprocalInverseIsFilled() throws {
        let model = try LoaderHarness.load(Self.crm)
        #expect(model.entity(named: "CRMProject")?.relationship(named: "owner")?.inverse == "projects")
        #expect(model.entity(named: "CRMProject")?.relationship(named: "tasks")?.inverse == "project")
        #expect(model.entity(named: "CRMPerson")?.relationship(named: "projects")?.inverse == "owner")
        #expect(model.entity(named: "CRMProject")?.relationship(named: "lead")?.inverse == nil)
    }

    @Test func relationshipKeysConnectionsAndPredicates() throws {
        let wrong = Self.crm.replacingOccurrences(of: "id: [1, 2]}", with: "personId: [1, 2]}")
        #expect(
            LoaderHarness.issues(wrong) == [
                "mappings/crm.yml:19:33: unknown attribute 'personId' on 'CRMPerson' in 'where'"
            ])
        let project = try #require(try LoaderHarness.load(Self.crm).entity(named: "CRMProject"))
        let owner = try #require(project.relationship(named: "owner"))
        #expect(owner.kind == .toOne)
        #expect(owner.keyPath == ["owner"])
        #expect(
            owner.connection?.rule
                == .foreignKey([
                    ForeignKeyPair(
                        source: "personId", destination: "id",
                        mark: Mark(file: "mappings/crm.yml", line: 11, column: 58))
                ]))
        let team = try #require(project.relationship(named: "teamMembers"))
        #expect(team.kind == .toMany)
        #expect(team.keyPath == ["team_members"])
        #expect(team.assignment == .union)
        #expect(team.connection?.includeSubentities == false)
        #expect(team.connection?.sourcePredicate.clauses.map(\.attribute) == ["archived", "budget", "personId"])
        #expect(
            team.connection?.sourcePredicate.clauses.map(\.condition) == [
                .eq(.bool(false)), .ge(.decimal(try #require(DecimalNumber("100.5")))), .null(false),
            ])
        #expect(team.connection?.destinationPredicate.clauses.map(\.attribute) == ["active", "id"])
        #expect(
            team.connection?.destinationPredicate.clauses.map(\.condition) == [
                .eq(.bool(true)), .in([.int(1), .int(2)]),
            ])
        let tasks = try #require(project.relationship(named: "tasks"))
        #expect(tasks.nested)
        #expect(tasks.keyPath == ["todo_items"])
        #expect(tasks.assignment == .replace)
        #expect(project.relationship(named: "lead")?.connection?.rule == .keyPath(["owner"]))
    }
}
