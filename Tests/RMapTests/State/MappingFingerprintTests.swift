import Testing

@testable import RMap

/// The fingerprint that tells remembered payloads whether the mapping changed: taken of the files'
/// text and the variables they read, so that 10,000 entities cost no more than reading them.
@Suite("Mapping fingerprints")
struct MappingFingerprintTests {
    static let text = """
        rmap: 1
        source: { plugin: file, path: "${DATA:-data}/{collection}.json" }
        entities:
          Person: { attributes: { id: int, name: string } }

        """

    static func fingerprint(_ text: String = text, _ environment: [String: String] = [:]) throws -> String {
        MappingFingerprint.of(try LoaderHarness.load(text, environment: environment))
    }

    @Test("the same files and variables give the same fingerprint; a changed file or variable another")
    func changes() throws {
        let plain = try Self.fingerprint()
        #expect(try Self.fingerprint() == plain)
        #expect(try Self.fingerprint(Self.text.replacingOccurrences(of: "name: string", with: "name: int")) != plain)
        let set = try Self.fingerprint(Self.text, ["DATA": "other"])
        #expect(set != plain)
        #expect(try Self.fingerprint(Self.text, ["DATA": "other"]) == set)
        #expect(try Self.fingerprint(Self.text, ["DATA": "else"]) != set)
        #expect(try Self.fingerprint(Self.text, ["UNREAD": "x"]) == plain)
    }

    @Test("a model changed after loading, or built in code, is described instead")
    func changedModel() throws {
        let loaded = try LoaderHarness.load(Self.text)
        #expect(loaded.loadedFrom != nil)
        var staged = loaded
        staged.stages = [PluginConfig(plugin: "exec", options: ["command": "true"])]
        #expect(staged.loadedFrom == nil)
        #expect(MappingFingerprint.of(staged) != MappingFingerprint.of(loaded))
        let built = MappingModel(entities: loaded.entities)
        #expect(MappingFingerprint.of(built) == MappingFingerprint.of(MappingModel(entities: loaded.entities)))
        #expect(MappingFingerprint.of(loaded.readingSinger()) != MappingFingerprint.of(loaded))
    }
}
