import Foundation
import RMap
import Testing

@testable import RMapHTTP

/// `format: jsonapi` changes the http source's defaults and the index requests it makes.
@Suite("JSON:API source options and requests")
struct JSONAPISourceOptionsTests {
    static let crm = """
        rmap: 1
        source:
          plugin: http
          site: http://127.0.0.1:1/api
          format: jsonapi
          OPTIONS
        naming: {entity_prefix: CRM, attributes: kebab_case}
        entities:
          CRMPerson:
            sort: [lastName asc, bornOn desc]
            type_key: kind
            attributes: {id: int, firstName: string, lastName: string, bornOn: date, rank: {key: meta.rank, type: int}}
            relationships:
              projects: {to_many: CRMProject, inverse: owner}
          CRMAdmin: {extends: CRMPerson, attributes: {badge: string}}
          CRMProject:
            source: false
            attributes: {id: int, name: string}
            relationships:
              owner: {to_one: CRMPerson}
              tasks: {to_many: CRMTask, inverse: project}
          CRMTask:
            source: false
            attributes: {id: int, title: string}
            relationships: {project: {to_one: CRMProject}}
        """

    static func model(_ options: String = "") throws -> MappingModel {
        let registry = PluginRegistry()
        registry.registerHTTP()
        return try MappingLoader(environment: [:], catalog: registry.catalog)
            .load(documents: [("test.yml", crm.replacingOccurrences(of: "OPTIONS", with: options))])
    }

    static func settings(_ options: String = "") throws -> HTTPSourceSettings {
        try HTTPSourceSettings(try #require(try model(options).entity(named: "CRMPerson")?.source))
    }

    @Test("JSON:API defaults: no suffix, links.next, page[size], Accept: application/vnd.api+json")
    func defaults() throws {
        let settings = try Self.settings("page_size: 25")
        #expect(settings.format == .jsonapi && settings.suffix == "")
        #expect(settings.pagination == .nextURL(JSONKeyPath(segments: ["links", "next"])))
        #expect(settings.sizeParameter == .query("page[size]"))
        #expect(settings.headers["Accept"] == "application/vnd.api+json")
        #expect(!settings.conditional)
    }

    @Test("keys given win over the JSON:API defaults")
    func givenKeysWin() throws {
        let settings = try Self.settings(
            "suffix: /\n  paginate: page\n  size_param: limit\n  headers: {Accept: application/json}")
        #expect(settings.suffix == "/" && settings.pagination == .page)
        #expect(settings.sizeParameter == .query("limit") && settings.headers["Accept"] == "application/json")
    }

    @Test("the index request includes the source-less destinations, asks for the mapped fields and sorts")
    func indexQuery() throws {
        let model = try Self.model()
        let person = try #require(model.entity(named: "CRMPerson"))
        let items = JSONAPIQuery.items(for: person, model: model)
        #expect(
            items.map(\.name) == [
                "include", "fields[people]", "fields[admins]", "fields[projects]", "fields[tasks]", "sort",
            ])
        let values = Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(values["include"] == "projects,projects.tasks")
        #expect(values["fields[people]"] == "first-name,last-name,born-on,kind,projects,badge")
        #expect(values["fields[admins]"] == "first-name,last-name,born-on,badge,kind,projects")
        #expect(values["fields[projects]"] == "name,owner,tasks")
        #expect(values["fields[tasks]"] == "title,project")
        #expect(values["sort"] == "last-name,-born-on")
        let url = try HTTPSource(config: try #require(person.source), model: model)
            .url(for: person, values: [:], model: model)
        #expect(
            url.absoluteString
                == "http://127.0.0.1:1/api/people?include=projects,projects.tasks&fields%5Bpeople%5D=first-name,last-name,born-on,kind,projects,badge&fields%5Badmins%5D=first-name,last-name,born-on,badge,kind,projects&fields%5Bprojects%5D=name,owner,tasks&fields%5Btasks%5D=title,project&sort=last-name,-born-on"
        )
    }
}
