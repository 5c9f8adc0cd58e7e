@testable import RMap

/// Models and graph builders for the connect stage's tests.
enum ConnectFixtures {
    /// A fixture that could not be built.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The schema of mapping YAML given inline.
    static func schema(_ yaml: String) throws -> GraphSchema {
        let catalog = PluginCatalog(sources: ["file": ["path"]], stores: [:], transformers: [])
        let model = try MappingLoader(environment: [:], catalog: catalog).load(documents: [("test.yml", yaml)])
        return GraphSchema(model: model)
    }

    /// A CRM: people (admins extend them), accounts keyed by id and region,
    /// desks held by one person, projects with owners, leads and team members.
    ///
    /// `ownerAccount` is declared before `owner`, `leadManager` before `lead`,
    /// and `CRMPerson.projectLeads` before the projects whose `owner` fills
    /// the inverse it reads through.
    static let crm = """
        rmap: 1
        naming:
          entity_prefix: CRM
        entities:
          CRMPerson:
            attributes:
              id: int
              name: string
              managerId: int
              accountId: int
              region: string
              deskId: int
            relationships:
              manager:
                to_one: CRMPerson
                connect: { foreign_key: { managerId: id } }
              account:
                to_one: CRMAccount
                inverse: people
                connect: { foreign_key: { accountId: id, region: region } }
              desk:
                to_one: CRMDesk
                inverse: occupant
                connect: { foreign_key: { deskId: id } }
              ownedProjects: { to_many: CRMProject, inverse: owner }
              projectLeads:
                to_many: CRMPerson
                connect: { key_path: ownedProjects.lead }
              memberOf: { to_many: CRMProject, inverse: teamMembers }
              notes: { to_many: CRMNote, nested: true, inverse: author }
          CRMAdmin:
            extends: CRMPerson
            attributes:
              level: int
          CRMAccount:
            identity: [id, region]
            attributes:
              id: int
              region: string
            relationships:
              people: { to_many: CRMPerson }
          CRMDesk:
            attributes:
              id: int
            relationships:
              occupant: { to_one: CRMPerson }
          CRMNote:
            attributes:
              id: int
            relationships:
              author: { to_one: CRMPerson }
          CRMProject:
            attributes:
              id: int
              personId: int
              leadId: int
              leadName: string
              teamMemberIds: [int]
              leadRefs: [string]
              accountRef: [string]
            relationships:
              ownerAccount:
                to_one: CRMAccount
                connect: { key_path: owner.account }
              owner:
                to_one: CRMPerson
                inverse: ownedProjects
                connect: { foreign_key: { personId: id } }
              leadManager:
                to_one: CRMPerson
                connect: { key_path: lead.managerId }
              lead:
                to_one: CRMPerson
                connect: { key_path: leadId }
              namedLead:
                to_one: CRMPerson
                connect: { foreign_key: { leadName: name } }
              coLeads:
                to_many: CRMPerson
                connect: { key_path: leadRefs }
              account:
                to_one: CRMAccount
                connect: { key_path: accountRef }
              teamMembers:
                to_many: CRMPerson
                inverse: memberOf
                connect: { foreign_key: { teamMemberIds: id } }
              admins:
                to_many: CRMAdmin
                connect: { foreign_key: { teamMemberIds: id } }
              plainMembers:
                to_many: CRMPerson
                connect: { foreign_key: { teamMemberIds: id }, include_subentities: false }
              teamManagers:
                to_many: CRMPerson
                connect: { key_path: teamMembers.manager }
              memberAccount:
                to_one: CRMAccount
                connect: { key_path: teamMembers.account }
              watchers:
                to_many: CRMPerson
                assignment: union
                connect: { foreign_key: { teamMemberIds: id } }
        """

    /// The CRM's schema.
    static func crmSchema() throws -> GraphSchema { try schema(crm) }
}

extension ObjectGraph {
    /// Adds (or updates) an object of `entity` with these attribute values; its identity is read from them.
    @discardableResult
    func add(_ entity: String, _ values: [String: Value], origin: String = "test.json") throws -> GraphObject {
        guard let type = schema.type(named: entity) else {
            throw ConnectFixtures.Failure(description: "no entity \(entity)")
        }
        let identity = IdentityKey(type.mapping.identity.map { values[$0] ?? .null })
        let (object, _) = upsert(type, identity: identity, origin: origin)
        for (name, value) in values { try object.set(name, to: value) }
        return object
    }

    /// The object of `entity` with a single integer identity.
    func find(_ entity: String, _ id: Int64) throws -> GraphObject {
        guard let object = try object(of: entity, identity: [.int(id)]) else {
            throw ConnectFixtures.Failure(description: "no \(entity) \(id)")
        }
        return object
    }
}

extension GraphObject {
    /// The integer identities of the objects related through `name`, in order.
    func ids(_ name: String) throws -> [Int64] {
        try related(name).map { object in
            if case .int(let id)? = object.identity.values.first { return id }
            return -1
        }
    }
}
