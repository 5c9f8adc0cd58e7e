import RMap

extension StatusAction {
    /// The option's key, in the key lists of both sources.
    static let optionKey = "on_status"

    /// Reads the `on_status` option, shared by the `http` and `graphql` sources: an action per
    /// error status, e.g. `on_status: {404: skip}`.
    ///
    /// - Throws: ``PluginError`` at a key that is no error status (400 to 599) or an unknown action.
    static func actions(_ reader: OptionReader) throws(PluginError) -> [Int: StatusAction] {
        var actions: [Int: StatusAction] = [:]
        for pair in try reader.mapping(optionKey) ?? [] {
            let code = try reader.text(pair.key, "a status in 'on_status'")
            guard let status = Int(code), (400...599).contains(status) else {
                throw reader.fail(pair.key, "'on_status' keys are error statuses from 400 to 599, found '\(code)'")
            }
            let name = try reader.text(pair.value, "the action for status \(status)")
            guard let action = StatusAction(rawValue: name) else {
                let names = allCases.map(\.rawValue)
                throw reader.fail(
                    pair.value,
                    "unknown action '\(name)' for status \(status) (expected \(names.joined(separator: " or ")))"
                        + Suggestion.hint(for: name, in: names))
            }
            actions[status] = action
        }
        return actions
    }
}
