extension AttributeDecoder {
    /// An attribute's `transform:`: a transformer name, `{ exec: [program, args...] }`, or a list
    /// of them in which an `exec` item may come only last.
    func decodeTransform(_ node: YAMLNode, into attribute: inout AttributeMapping, directory: String) {
        let items = node.sequence ?? [node]
        for (index, item) in items.enumerated() {
            guard item.mapping != nil else {
                guard
                    let name = diagnostics.string(
                        item, node.sequence == nil ? "'transform'" : "each item of 'transform'")
                else { continue }
                if transformers.contains(name) {
                    attribute.transforms.append(name)
                } else {
                    diagnostics.error(
                        node.mark, "unknown transformer '\(name)'\(Suggestion.hint(for: name, in: transformers))")
                }
                continue
            }
            guard index == items.count - 1 else {
                diagnostics.error(item.mark, "an exec transformer runs last: put it at the end of 'transform'")
                continue
            }
            attribute.execTransform = execCommand(item, directory: directory)
        }
    }

    /// `{ exec: [program, args...], env: {NAME: value}, timeout: SECONDS }`.
    private func execCommand(_ node: YAMLNode, directory: String) -> ExecCommand? {
        let pairs = diagnostics.keyedPairs(node, "an exec transformer", allowed: ExecTransformer.options) ?? []
        guard let command = pairs.first(where: { $0.0 == "exec" })?.1 else {
            diagnostics.error(node.mark, "an exec transformer needs 'exec: [program, args...]'")
            return nil
        }
        guard let words = diagnostics.strings(command, "'exec'"), !words.isEmpty else {
            if command.sequence?.isEmpty == true { diagnostics.error(command.mark, "'exec' names no program") }
            return nil
        }
        var environment: [String: String] = [:]
        if let env = pairs.first(where: { $0.0 == "env" })?.1 {
            for (name, value) in diagnostics.keyedPairs(env, "'env'", allowed: []) ?? [] {
                environment[name] = diagnostics.string(value, "the value of '\(name)'")
            }
        }
        var timeout: Duration?
        do {
            timeout = try PluginConfig(plugin: "exec", options: node, baseDirectory: directory, mark: node.mark)
                .seconds("timeout", allowingZero: false)
        } catch {
            if case .invalidOptions(let problem) = error.kind { diagnostics.error(error.mark ?? node.mark, problem) }
        }
        return ExecCommand(words: words, environment: environment, directory: directory, timeout: timeout)
    }
}
