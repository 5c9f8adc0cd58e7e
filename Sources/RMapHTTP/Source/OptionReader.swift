import RMap

/// Reads a plugin's YAML options, throwing ``PluginError`` at the offending
/// node's mark (`file:line:col`) when one has the wrong shape.
struct OptionReader {
    let options: YAMLNode
    let plugin: String

    init(_ config: PluginConfig) {
        options = config.options
        plugin = config.plugin
    }

    /// A string option (any scalar's text), or `nil` when absent.
    func string(_ key: String) throws(PluginError) -> String? {
        guard let node = options[key], !isNull(node) else { return nil }
        return try text(node, "'\(key)'")
    }

    /// A positive whole number, or `nil` when absent.
    func positiveInt(_ key: String) throws(PluginError) -> Int? {
        guard let node = options[key], !isNull(node) else { return nil }
        guard let number = node.scalar?.int, number > 0 else {
            throw fail(node, "'\(key)' must be a whole number greater than 0, found \(shown(node))")
        }
        return number
    }

    /// A whole number of at least 0, or `nil` when absent.
    func count(_ key: String) throws(PluginError) -> Int? {
        guard let node = options[key], !isNull(node) else { return nil }
        guard let number = node.scalar?.int, number >= 0 else {
            throw fail(node, "'\(key)' must be a whole number (0 or more), found \(shown(node))")
        }
        return number
    }

    /// A number of seconds greater than 0, or `nil` when absent.
    func seconds(_ key: String) throws(PluginError) -> Duration? {
        guard let node = options[key], !isNull(node) else { return nil }
        guard let seconds = node.scalar?.double, seconds > 0, seconds.isFinite else {
            throw fail(node, "'\(key)' must be a number of seconds greater than 0, found \(shown(node))")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// A list of strings, or `nil` when absent.
    func strings(_ key: String) throws(PluginError) -> [String]? {
        guard let node = options[key], !isNull(node) else { return nil }
        guard let items = node.sequence else {
            throw fail(node, "'\(key)' must be a list, found \(node.kindName)")
        }
        var values: [String] = []
        for item in items { values.append(try text(item, "each entry of '\(key)'")) }
        return values
    }

    /// A mapping option's pairs, or `nil` when absent.
    func mapping(_ key: String) throws(PluginError) -> [YAMLPair]? {
        guard let node = options[key], !isNull(node) else { return nil }
        guard let pairs = node.mapping else {
            throw fail(node, "'\(key)' must be a mapping, found \(node.kindName)")
        }
        return pairs
    }

    /// A scalar's text; `what` names it in the error.
    func text(_ node: YAMLNode, _ what: String) throws(PluginError) -> String {
        guard let scalar = node.scalar, !isNull(node) else {
            throw fail(node, "\(what) must be a string, found \(node.kindName)")
        }
        return scalar.text
    }

    /// An error at `node`'s mark.
    func fail(_ node: YAMLNode, _ message: String) -> PluginError {
        PluginError.invalidOptions("\(plugin) source: \(message)", at: node.mark)
    }

    private func isNull(_ node: YAMLNode) -> Bool {
        node.scalar?.isNull ?? false
    }

    private func shown(_ node: YAMLNode) -> String {
        node.scalar.map { "'\($0.text)'" } ?? node.kindName
    }
}
