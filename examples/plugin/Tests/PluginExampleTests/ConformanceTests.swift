import Foundation
import PluginExample
import RMap
import RMapCommandLine
import RMapConformance
import Testing

/// The example's plugins pass rmap's conformance suites.
@Suite("example plugins conform")
struct ConformanceTests {
    @Test("the slug transformer")
    func slug() async {
        let violations = await TransformerConformance.check(name: "slug", slugTransformer)
        #expect(violations.isEmpty, "\(violations)")
        #expect(slugTransformer.transform(.string("  New York ")) == .string("new-york"))
    }

    @Test("the csv source, on mappings/people.yml")
    func csv() async throws {
        // The registry rmap-example runs with: the mapping's json store is RMapSQLite's.
        let registry = RMapCommandLine.standardRegistry()
        registry.registerExample()
        let mapping = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("mappings/people.yml").path
        let violations = try await SourceConformance(registry: registry, mappings: [mapping]).check()
        #expect(violations.isEmpty, "\(violations)")
    }
}
