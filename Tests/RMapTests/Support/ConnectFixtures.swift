@testable import RMap

/// The models of the connect stage's tests, run with ``StreamedRun``.
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
    /// The to-manys whose order the tests read are `ordered: true`: a store keeps
    /// the order of those only.
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
                ordered: true
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
                ordered: true
                connect: { key_path: leadRefs }
              account:
                to_one: CRMAccount
                connect: { key_path: accountRef }
              teamMembers:
                to_many: CRMPerson
                inverse: memberOf
                ordered: true
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

    /// The relationships `CRMProject` connects, whose links a run's report counted.
    static let projectConnections = [
        "ownerAccount", "owner", "leadManager", "lead", "namedLead", "coLeads", "account", "teamMembers", "admins",
        "plainMembers", "teamManagers", "memberAccount", "watchers",
    ]
}
