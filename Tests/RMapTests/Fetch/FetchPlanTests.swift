import Testing

@testable import RMap

@Suite("Fetch plan")
struct FetchPlanTests {
    private func model(childSource: String) throws -> MappingModel {
        let catalog = PluginCatalog(sources: ["http": ["site", "params"]], stores: [:], transformers: [])
        let yaml = """
            rmap: 1
            source: { plugin: http, site: "http://127.0.0.1:1" }
            entities:
              Person:
                attributes: { id: int }
              Project:
            \(childSource)
                attributes: { id: int, personId: int }
                relationships:
                  owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
              Tag:
                attributes: { id: int }
            """
        return try MappingLoader(environment: [:], catalog: catalog).load(documents: [("m.yml", yaml)])
    }

    private func waves(_ model: MappingModel) -> [[String]] {
        FetchPlan(model: model, only: []).waves.map { $0.flatMap { $0.entities.map(\.name) } }
    }

    @Test("entities without parents fetch together, in one group per source configuration")
    func flat() throws {
        #expect(waves(try model(childSource: "")) == [["Person", "Project", "Tag"]])
    }

    @Test("a nested_path entity waits for the parent its placeholder connects to")
    func nestedPath() throws {
        let model = try model(childSource: "    nested_path: people/{personId}/projects")
        #expect(waves(model) == [["Person", "Tag"], ["Project"]])
    }

    @Test("a params placeholder (ActiveResource has_many) waits for its parent too, named by key, column or name")
    func hasManyParams() throws {
        for key in ["person_id", "personId"] {
            let source = "    source: { plugin: http, site: \"http://127.0.0.1:1\", params: { \(key): \"{id}\" } }"
            #expect(waves(try model(childSource: source)) == [["Person", "Tag"], ["Project"]])
        }
    }

    @Test("--only leaves out the other entities")
    func only() throws {
        let plan = FetchPlan(model: try model(childSource: ""), only: ["Tag"])
        #expect(plan.waves.map { $0.flatMap { $0.entities.map(\.name) } } == [["Tag"]])
    }
}
