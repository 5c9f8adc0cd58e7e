import Foundation
import RMap

/// Models and payloads for tests, from inline YAML and JSON text.
enum ModelFixtures {
    /// Loads one mapping file given as text; the built-in transformers are known to it.
    static func model(_ yaml: String, path: String = "mappings/test.yml") throws -> MappingModel {
        let catalog = PluginCatalog(
            sources: ["file": ["path"]], stores: ["sqlite": ["path"]],
            transformers: BuiltinTransformers.all.keys.sorted())
        return try MappingLoader(environment: [:], catalog: catalog).load(documents: [(path, yaml)])
    }

    /// A parsed JSON document.
    static func json(_ text: String, origin: String = "payload.json") throws -> JSONValue {
        try JSONReader.parse(text, origin: origin)
    }

    /// Writes `text` to a new temporary file named `name` and returns its path.
    static func temporaryFile(_ text: String, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
