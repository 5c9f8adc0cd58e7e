import RMap

extension HTTPSourceSettings {
    /// The keys that say what answers mean: `on_status` and `error_when`.
    static let answerKeys = [StatusAction.optionKey, "error_when"]

    /// Reads `on_status` and `error_when`.
    mutating func readAnswers(_ reader: OptionReader) throws(PluginError) {
        statusActions = try StatusAction.actions(reader)
        errorWhen = try Self.errorEnvelope(reader)
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
