import Foundation
import RMap
import Testing

@Suite("Plugin errors")
struct PluginErrorTests {
    typealias F = StoreFixtures

    @Test("a plugin the registry does not hold is an unknown plugin of its kind, at the block's mark")
    func unknownPlugin() throws {
        let blocks = "source: { plugin: file, path: '{collection}.json' }\nstore: { plugin: json, path: x.json }\n"
        let model = try F.model(F.crm + "\n" + blocks)
        let empty = PluginRegistry()
        let store = try #require(throws: PluginError.self) { try empty.makeStore(try #require(model.store)) }
        #expect(store.kind == .unknownPlugin(kind: .store, name: "json"))
        #expect(store.mark == nil)
        #expect(store.description == "unknown store plugin 'json'")
        let config = try #require(model.entities.first?.source)
        let source = try #require(throws: PluginError.self) { try empty.makeSource(config, model: model) }
        #expect(source.kind == .unknownPlugin(kind: .source, name: "file"))
        #expect(source.mark == config.mark)
        #expect(source.description == "\(config.mark): unknown source plugin 'file'")
    }

    @Test("a block whose options cannot make its plugin is invalid options, at the block's mark")
    func invalidOptions() throws {
        let registry = PluginRegistry.standard()
        let yaml = F.crm + "\nstages: [{ plugin: exec }]\n"
        let model = try MappingLoader(catalog: registry.catalog).load(documents: [("test.yml", yaml)])
        let config = try #require(model.stages.first)
        let error = try #require(throws: PluginError.self) { try registry.makeStage(config, model: model) }
        #expect(error.kind == .invalidOptions(problem: "the exec stage needs 'command: [program, args...]'"))
        #expect(error.mark == config.mark)
    }
}
