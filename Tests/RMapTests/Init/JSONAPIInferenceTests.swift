import Foundation
import RMap
import RMapAuthoring
import RMapHTTP
import Testing

@Suite("rmap init: JSONAPIInference")
struct JSONAPIInferenceTests {
    static func infer(_ origin: PayloadSample.Origin, _ document: JSONValue, prefix: String = "Blog") -> InferredMapping
    {
        JSONAPIInference(prefix: prefix).infer([PayloadSample(origin: origin, document: document)])
    }

    static func fixture(_ name: String) throws -> JSONValue {
        try JSONReader.parse(
            Data(contentsOf: JSONAPIFixtureTests.fixtures.appendingPathComponent(name)), origin: name)
    }

    /// The inferred mapping written and loaded back, with `API_URL` set.
    static func load(_ mapping: InferredMapping) throws -> MappingModel {
        let text = MappingWriter(folder: "/work", currentDirectory: "/work").text(mapping)
        return try MappingLoader(
            environment: ["API_URL": "https://example.com"], catalog: MappingInferenceTests.catalog
        )
        .load(documents: [("/work/init.yml", text)])
    }

    @Test(
        "jsonapi.org's compound document: an entity per type, the primary one fetched, linkage as relationships",
        arguments: ["compound-document-1.0.json", "compound-document-1.1.json"])
    func compoundDocument(_ name: String) throws {
        let mapping = Self.infer(.file("articles.json"), try Self.fixture(name))
        #expect(mapping.entities.map(\.name) == ["BlogArticle", "BlogPerson", "BlogComment"])
        #expect(
            mapping.entities.map(\.source) == [.jsonAPI(site: "${API_URL}", path: "articles", suffix: ""), nil, nil])
        #expect(mapping.entities.map(\.identity) == ["id", "id", "id"])
        #expect(mapping.entities[1].attributes.map(\.name) == ["id", "firstName", "lastName", "twitter"])
        #expect(mapping.entities[1].attributes.allSatisfy { $0.key == nil })
        #expect(mapping.entities[0].attributes.first?.type == .int)
        let relationships = mapping.entities[0].relationships.map { "\($0.name) \($0.toMany) \($0.destination)" }
        #expect(relationships == ["author false BlogPerson", "comments true BlogComment"])
        #expect(mapping.entities[2].relationships.map(\.name) == ["author"])

        let model = try Self.load(mapping)
        #expect(model.entity(named: "BlogArticle")?.jsonAPI?.linkages.map(\.ids) == ["authorId", "commentIds"])
        #expect(model.entity(named: "BlogComment")?.jsonAPI?.type == "comments")
        let text = MappingWriter(folder: "/work", currentDirectory: "/work").text(mapping)
        #expect(text.contains(#"source: { plugin: http, site: "${API_URL}", format: jsonapi }  # check: set API_URL"#))
    }

    @Test("a URL's site and path (its trailing slash as the suffix); a to-many with one to-one back is its inverse")
    func urlAndInverse() throws {
        let document = try JSONReader.parse(
            #"""
            {"data": [{"type": "projects", "id": "1", "attributes": {"name": "Apollo", "starts-on": "2024-01-01"},
                       "relationships": {"person": {"data": {"type": "people", "id": "3"}},
                                         "tasks": {"data": [{"type": "tasks", "id": "9"}]}}}],
             "included": [{"type": "people", "id": "3", "attributes": {"first-name": "Ada"},
                           "relationships": {"projects": {"data": [{"type": "projects", "id": "1"}]}}},
                          {"type": "tasks", "id": "9", "attributes": {"title": "Launch"},
                           "relationships": {"project": {"data": {"type": "projects", "id": "1"}}}}]}
            """#, origin: "page")
        let mapping = Self.infer(
            .url("http://127.0.0.1:8000/jsonapi/projects/?include=person,tasks"), document, prefix: "CRM")
        #expect(
            mapping.entities.first?.source
                == .jsonAPI(site: "http://127.0.0.1:8000", path: "jsonapi/projects", suffix: "/"))
        #expect(mapping.entities.first?.attributes.map(\.name) == ["id", "name", "startsOn"])
        let inverses = mapping.entities.flatMap { entity in
            entity.relationships.map { "\(entity.name).\($0.name) \($0.inverse ?? "-")" }
        }
        #expect(
            inverses == [
                "CRMProject.person -", "CRMProject.tasks project", "CRMPerson.projects person", "CRMTask.project -",
            ])
        let model = try Self.load(mapping)
        #expect(model.entity(named: "CRMProject")?.jsonAPI?.linkages.map(\.relationship) == ["person"])
        #expect(model.entity(named: "CRMTask")?.jsonAPI?.linkages.map(\.relationship) == ["project"])
    }

    @Test("a document without data is left out with a note")
    func notADocument() throws {
        let mapping = Self.infer(.file("people.json"), try JSONReader.parse(#"[{"id": 1}]"#, origin: "x"))
        #expect(mapping.entities.isEmpty)
        #expect(
            mapping.notes.map(\.description) == ["unsure: people.json: not a JSON:API document (no 'data'); left out"])
    }
}
