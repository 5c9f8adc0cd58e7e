import RMap

extension HTTPSourceSettings {
    /// The keys that say what answers mean: `on_status` and `error_when`.
    static let answerKeys = ["on_status", "error_when"]

    /// Reads `on_status` and `error_when`.
    mutating func readAnswers(_ reader: OptionReader) throws(PluginError) {
        statusActions = try Self.statusActions(reader)
        errorWhen = try Self.errorEnvelope(reader)
    }

    /// The `on_status` option: an action per error status.
    static func statusActions(_ reader: OptionReader) throws(PluginError) -> [Int: StatusAction] {
        var actions: [Int: StatusAction] = [:]
        for pair in try reader.mapping("on_status") ?? [] {
            let code = try reader.text(pair.key, "a status in 'on_status'")
            guard let status = Int(code), (400...599).contains(status) else {
                throw reader.fail(pair.key, "'on_status' keys are error statuses from 400 to 599, found '\(code)'")
            }
            let name = try reader.text(pair.value, "the action for status \(status)")
            guard let action = StatusAction(rawValue: name) else {
                let names = StatusAction.allCases.map(\.rawValue)
                throw reader.fail(
                    pair.value,
                    "unknown action '\(name)' for status \(status) (expected \(names.joined(separator: " or ")))"
                        + Suggestion.hint(for: name, in: names))
            }
            actions[status] = action
        }
        return actions
    }

    private static func errorEnvelope(_ reader: OptionReader) throws(PluginError) -> ErrorEnvelope? {
        guard let pairs = try reader.mapping("error_when"), let node = reader.options["error_when"] else { return nil }
        let allowed = ["key", "equals", "message"]
        for pair in pairs where !allowed.contains(pair.key.scalar?.text ?? "") {
            let key = pair.key.scalar?.text ?? ""
            throw reader.fail(
                pair.key,
                "unknown key '\(key)' in 'error_when' (expected key, equals, message)"
                    + Suggestion.hint(for: key, in: allowed))
        }
        guard let key = node["key"], let equals = node["equals"], equals.scalar != nil else {
            throw reader.fail(
                node,
                "'error_when' needs 'key' and a scalar 'equals', e.g. 'error_when: {key: ok, equals: false, message: error}'"
            )
        }
        let message = try node["message"].map { node throws(PluginError) in
            try reader.keyPath(node, "'error_when.message'")
        }
        return ErrorEnvelope(
            key: try reader.keyPath(key, "'error_when.key'"), equals: reader.json(equals), message: message)
    }
}
