/// A case's `expect_push:`: its local edits made in the store its payload was run into, then the plan that sends them compared request by request with the
/// requests it expects.
struct PushPlanCheck {
    /// The model as loaded (its routes and suffixes, not the test run's).
    let model: MappingModel
    /// Plans the push of a store's local changes, as `rmap diff` does.
    let planPush: @Sendable (SyncStore) throws -> PushPlan

    /// What differs; empty when the plan holds exactly the expected requests, in order.
    func failures(of testCase: MappingTestCase, in sync: SyncStore, expected: [ExpectedRequest])
        -> [MappingTestFailure]
    {
        let plan: PushPlan
        do {
            let failures = try testCase.edits.flatMap { try apply($0, to: sync) }
            guard failures.isEmpty else { return failures }
            plan = try planPush(sync)
        } catch {
            return [.runFailed(model.redact("\(error)"))]
        }
        return (0..<max(plan.requests.count, expected.count)).compactMap { index in
            let actual = plan.requests.indices.contains(index) ? plan.requests[index] : nil
            guard expected.indices.contains(index) else {
                return actual.map { .requestUnexpected(position: index + 1, actual: $0.line) }
            }
            let wanted = expected[index]
            let line = PlannedRequest.line(method: wanted.method, path: wanted.path, body: wanted.body)
            guard let actual else { return .requestMissing(position: index + 1, expected: line, at: wanted.mark) }
            let same = actual.method == wanted.method && actual.path == wanted.path && actual.body == wanted.body
            return same
                ? nil : .requestDiffers(position: index + 1, expected: line, actual: actual.line, at: wanted.mark)
        }
    }

    /// Makes one block of local edits; the failures of the objects it cannot edit.
    private func apply(_ edit: LocalEdit, to sync: SyncStore) throws -> [MappingTestFailure] {
        guard let entity = model.entity(named: edit.entity) else {
            let suggestion = Suggestion.closest(to: edit.entity, in: model.entities.map(\.name))
            return [.unknownEntity(edit.entity, suggestion: suggestion, at: edit.mark)]
        }
        let reader = AttributeValues(entity: entity)
        var failures: [MappingTestFailure] = []
        for object in edit.objects {
            let values: [String: Value]
            let identity: IdentityKey?
            do throws(MappingTestFailure) {
                values = try Self.values(of: object, reader: reader)
                identity = edit.kind == .create ? nil : IdentityKey(try reader.identity(of: object))
            } catch {
                failures.append(error)
                continue
            }
            guard let identity else {
                try sync.insert(entity.name, values)
                continue
            }
            guard let stored = try sync.objects(of: entity.name).first(where: { IdentityKey($0.identity) == identity })
            else {
                let shown = ExpectedObjectComparison.display(identity)
                failures.append(.missing(entity: entity.name, identity: shown, at: object.mark))
                continue
            }
            if edit.kind == .edit { try sync.update(stored, values) } else { try sync.delete(stored) }
        }
        return failures
    }

    /// The attribute values an edited or created object names.
    private static func values(of object: ExpectedObject, reader: AttributeValues) throws(MappingTestFailure)
        -> [String: Value]
    {
        var values: [String: Value] = [:]
        for (name, node) in object.values {
            if reader.entity.relationships.contains(where: { $0.name == name }) {
                throw .notAnAttribute(entity: reader.entity.name, name: name, at: node.mark)
            }
            values[name] = try reader.value(of: node, for: name)
        }
        return values
    }
}
