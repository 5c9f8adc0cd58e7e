import Foundation

/// Runs the cases of a ``MappingTestSuite``: each payload through fetch, map, connect and the
/// stages into a scratch SQLite store, with the case's entity reading the payload and no other
/// entity fetching, then compares what the store holds with the objects the case expects and,
/// for a case with `expect_push:`, the push plan of its local edits with the requests it expects.
public struct MappingTestRunner: Sendable {
    /// The model the mapping files load into.
    public let model: MappingModel
    /// The plugins the run uses (sources, transformers, stages, and the `sqlite` store).
    public let registry: PluginRegistry
    /// Plans the push of a store's local changes: `rmap test` gives `Pusher`'s, which knows
    /// each entity's suffix; by default ``SyncStore/plan(suffix:)``'s `.json`.
    public let planPush: @Sendable (SyncStore) throws -> PushPlan

    /// Creates a runner.
    public init(
        model: MappingModel, registry: PluginRegistry,
        planPush: @escaping @Sendable (SyncStore) throws -> PushPlan = { try $0.plan() }
    ) {
        self.model = model
        self.registry = registry
        self.planPush = planPush
    }

    /// The failures of one case; empty when it passes.
    public func run(_ testCase: MappingTestCase) async -> [MappingTestFailure] {
        guard model.entity(named: testCase.entity) != nil else {
            let names = model.entities.map(\.name)
            return [
                .unknownEntity(
                    testCase.entity, suggestion: Suggestion.closest(to: testCase.entity, in: names), at: testCase.mark)
            ]
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result: RunResult
        let store = PluginConfig(
            plugin: "sqlite", options: ["path": scratch.appendingPathComponent("store.sqlite").path])
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let path: String
            switch testCase.payload {
            case .file(let file): path = URL(fileURLWithPath: file).path
            case .inline(let json):
                path = scratch.appendingPathComponent("payload.json").path
                try Data(JSONWriter.serialize(json).utf8).write(to: URL(fileURLWithPath: path))
            }
            result = try await Pipeline(model: model.reading(testCase.entity, from: path), registry: registry)
                .run(RunOptions(store: store))
        } catch {
            return [.runFailed(model.redact("\(error)"))]
        }
        // A payload written in the test file is named so, not by its scratch file.
        let rejected = result.report.recordErrors.map { error in
            MappingTestFailure.rejected(
                model.redact(
                    error.description.replacingOccurrences(of: scratch.path + "/payload.json", with: "payload")))
        }
        var failures = rejected
        do {
            let reader = StoreReader(store: try registry.makeStore(store), model: model)
            for expected in testCase.expected {
                failures += try await compare(expected.objects, of: expected.entity, in: reader, at: testCase.mark)
            }
            if let expected = testCase.expectedPush {
                let sync = SyncStore(store: try registry.makeStore(store), model: model)
                failures += PushPlanCheck(model: model, planPush: planPush).failures(
                    of: testCase, in: sync, expected: expected)
            }
        } catch {
            failures.append(.runFailed(model.redact("\(error)")))
        }
        return failures
    }

    /// The failures of one entity's expected objects against the stored objects of it.
    private func compare(_ expected: [ExpectedObject], of name: String, in reader: StoreReader, at mark: Mark)
        async throws -> [MappingTestFailure]
    {
        guard let entity = model.entity(named: name) else {
            let suggestion = Suggestion.closest(to: name, in: model.entities.map(\.name))
            return [.unknownEntity(name, suggestion: suggestion, at: mark)]
        }
        let actual = try await reader.objects(of: name).fetchAll()
        var failures: [MappingTestFailure] = []
        var seen = Set<String>()
        for object in expected {
            let comparison = ExpectedObjectComparison(entity: entity, expected: object, reader: reader)
            failures += try await comparison.failures()
            if let identity = comparison.identity { seen.insert(identity) }
        }
        for object in actual {
            let identity = ExpectedObjectComparison.display(IdentityKey(object.identity))
            if !seen.contains(identity) { failures.append(.unexpected(entity: name, identity: identity)) }
        }
        return failures
    }
}

extension MappingModel {
    /// The model a test case runs: `entity` reads the payload file at `path`, no other entity
    /// fetches (each arrives only inside its payload), and nothing fetches per parent or since a cursor.
    func reading(_ entity: String, from path: String) -> MappingModel {
        let source = PluginConfig(plugin: "file", options: ["path": path])
        let entities = entities.map { mapping in
            var mapping = mapping
            mapping.source = mapping.name == entity ? source : nil
            mapping.nestedPath = nil
            mapping.incremental = nil
            return mapping
        }
        var model = MappingModel(entities: entities, store: nil, inflector: inflector, files: files, secrets: secrets)
        model.stages = stages
        return model
    }
}
