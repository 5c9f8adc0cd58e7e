import Foundation
import RMap
import RMapConformance
import RMapHTTP
import RMapSQLite
import Testing

/// The conformance suites of `RMapConformance`, run against the built-in plugins (which pass)
/// and against plugins that break a rule (which the suites catch).
@Suite("plugin conformance")
struct ConformanceTests {
    /// The standard plugins and SQLite, which the shipped mappings name as their store.
    static func registry() -> PluginRegistry {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        return registry
    }

    @Test("every built-in transformer passes", arguments: BuiltinTransformers.all.keys.sorted())
    func builtinTransformer(name: String) async throws {
        let transformer = try #require(BuiltinTransformers.all[name])
        let violations = await TransformerConformance.check(name: name, transformer)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("a transformer that is impure or changes the value's type is caught")
    func brokenTransformer() async {
        let calls = Counter()
        let violations = await TransformerConformance.check(
            name: "broken",
            ClosureTransformer { value in
                if case .int = value { return .string("\(calls.next())") }
                return value
            })
        #expect(Set(violations.map(\.rule)) == ["is pure", "keeps the type", "is safe to share"])
        #expect(violations.first?.description.hasPrefix("transformer 'broken': ") == true)
    }

    @Test("the file source passes on the shipped mappings")
    func fileSource() async throws {
        let mappings = ["mappings/crm.yml", "mappings/work.yml"].map {
            TestServers.repositoryRoot.appendingPathComponent($0).path
        }
        let violations = try await SourceConformance(registry: Self.registry(), mappings: mappings).check()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the exec source passes with a Python program")
    func execSource() async throws {
        let path = ExecPluginFixtures.folder.appendingPathComponent("exec-source.yml").path
        let violations = try await SourceConformance(registry: PluginRegistry.standard(), mappings: [path]).check()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("a source that strays from its entities, swallows failures and differs between fetches is caught")
    func brokenSource() async throws {
        let workspace = try RunWorkspace()
        try workspace.write(
            "m.yml",
            """
            rmap: 1
            source: { plugin: sloppy }
            entities:
              Person: { attributes: { id: int } }
              Project: { source: false, attributes: { id: int } }
            """)
        let registry = PluginRegistry()
        let fetches = Counter()
        registry.register(source: "sloppy", options: []) { _, _ in SloppySource(fetches: fetches) }
        let violations = try await SourceConformance(registry: registry, mappings: [workspace.path("m.yml")]).check()
        #expect(
            Set(violations.map(\.rule)) == [
                "delivers only the entities it is given", "names where each payload came from",
                "fails when delivering fails", "delivers the same records again",
            ], "\(violations)")
    }
}

/// Counts calls from any task.
final class Counter: Sendable {
    private let value = Locked(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// A source breaking most rules: it delivers `Project` records unasked, a payload without an origin,
/// ignores deliver's failures, and delivers a new identity on each fetch.
struct SloppySource: Source {
    let fetches: Counter

    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        let number = fetches.next()
        let record = JSONValue.object(JSONObject([("id", .number("\(number)"))]))
        try? await context.deliver(Payload(origin: "", entity: "Person", body: .records([record])))
        try? await context.deliver(Payload(origin: "sloppy", entity: "Project", body: .records([record])))
    }
}

extension RailsServerSuites {
    /// The http source's conformance, with the other suites that share the Rails app.
    @Suite("plugin conformance against Rails")
    struct RailsConformanceTests {
        @Test("the http source passes against the Rails app")
        func httpSource() async throws {
            let registry = ConformanceTests.registry()
            registry.registerHTTP()
            let mapping = TestServers.repositoryRoot.appendingPathComponent("examples/rails/crm.yml").path
            let violations = try await SourceConformance(
                registry: registry, mappings: [mapping],
                environment: ["RAILS_URL": try TestServers.rails().absoluteString]
            ).check()
            #expect(violations.isEmpty, "\(violations)")
        }
    }
}
