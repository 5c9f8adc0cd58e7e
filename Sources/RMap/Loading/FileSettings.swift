import Foundation

/// The file-level keys of one mapping file: what its entities inherit.
struct FileSettings {
    /// How property names become payload keys.
    enum AttributeNaming: String, CaseIterable {
        case snakeCase = "snake_case"
        case camelCase = "camel_case"
        case kebabCase = "kebab_case"
        case asIs = "as_is"
    }

    var path: String
    var directory: String
    var entityPrefix = ""
    var attributeNaming = AttributeNaming.snakeCase
    var root = RootStyle.auto
    var source: PluginConfig?
    var store: PluginConfig?
    var stages: [PluginConfig] = []
    /// `time_zone:`: the IANA zone in which `format:` patterns without a zone of their own are
    /// read and written (`nil`: UTC).
    var timeZone: String?
    /// The `entities:` pairs: name, its node, the name's mark.
    var entities: [(name: String, node: YAMLNode, mark: Mark)] = []

    static let topLevelKeys = ["rmap", "source", "naming", "inflections", "entities", "store", "stages", "time_zone"]
    static let namingKeys = ["entity_prefix", "attributes", "root"]
    static let inflectionKeys = ["irregular", "uncountable", "acronyms", "plural", "singular", "human"]
}

/// Decodes the file-level keys of a mapping file.
struct FileDecoder {
    let diagnostics: Diagnostics
    let catalog: PluginCatalog

    func decode(_ root: YAMLNode, path: String, inflections: inout Inflections) -> FileSettings {
        var settings = FileSettings(path: path, directory: Self.directory(of: path))
        guard let pairs = diagnostics.keyedPairs(root, "the mapping file", allowed: FileSettings.topLevelKeys)
        else { return settings }
        if !pairs.contains(where: { $0.0 == "rmap" }) {
            diagnostics.error(root.mark, "missing required key 'rmap' (the schema version: 'rmap: 1')")
        }
        for (key, node) in pairs {
            switch key {
            case "rmap":
                if let scalar = node.scalar, scalar.style != .plain, Int(scalar.text) != nil {
                    diagnostics.error(
                        node.mark,
                        "the schema version is a number, found the quoted string '\(scalar.text)' (write 'rmap: 1')")
                } else if node.scalar?.int != 1 {
                    diagnostics.error(
                        node.mark,
                        "unsupported schema version \(diagnostics.describe(node)) (this rmap reads 'rmap: 1')")
                }
            case "source":
                settings.source = plugin(node, "source", plugins: catalog.sources, directory: settings.directory)
            case "store": settings.store = plugin(node, "store", plugins: catalog.stores, directory: settings.directory)
            case "stages": settings.stages = stages(node, directory: settings.directory)
            case "time_zone": settings.timeZone = timeZone(node)
            case "naming": decodeNaming(node, into: &settings)
            case "inflections": decodeInflections(node, into: &inflections)
            default:
                // The names' marks by name, found once: a search per entity made loading quadratic.
                let marks = Dictionary(
                    (node.mapping ?? []).map { ($0.key.scalar?.text ?? "", $0.key.mark) },
                    uniquingKeysWith: { first, _ in first })
                for (name, entity) in diagnostics.keyedPairs(node, "entities", allowed: []) ?? [] {
                    settings.entities.append((name, entity, marks[name] ?? entity.mark))
                }
            }
        }
        return settings
    }

    /// Names users give the built-in plugins, with the plugin each stands for (when registered).
    static let pluginSynonyms = [
        "postgresql": "postgres", "pg": "postgres", "sqlite3": "sqlite", "https": "http", "rest": "http",
        "api": "http", "files": "file", "json": "file", "command": "exec", "program": "exec", "tap": "singer",
    ]

    /// A `source:` or `store:` block: a plugin name and the options that plugin accepts.
    func plugin(_ node: YAMLNode, _ what: String, plugins: [String: [String]], directory: String) -> PluginConfig? {
        guard let pairs = diagnostics.mapping(node, what) else { return nil }
        var name = "file"
        if what == "store" { name = "sqlite" }
        if let pluginNode = node["plugin"], let text = diagnostics.string(pluginNode, "'plugin'") {
            name = text
            guard plugins[name] != nil else {
                diagnostics.error(
                    pluginNode.mark,
                    "unknown \(what) plugin '\(name)'"
                        + Suggestion.hint(for: name, in: plugins.keys, synonyms: Self.pluginSynonyms))
                return nil
            }
        }
        let allowed = ["plugin"] + (plugins[name] ?? [])
        _ = diagnostics.keyedPairs(node, "\(what) (plugin '\(name)')", allowed: allowed)
        let options = YAMLNode.mapping(
            pairs.filter { $0.key.scalar?.text != "plugin" }.map { interpolated($0) }, node.mark)
        return PluginConfig(plugin: name, options: options, baseDirectory: directory, mark: node.mark)
    }

    /// A pair with every string scalar under it interpolated; under a key that holds secrets
    /// (``Interpolator/holdsSecrets(_:)``) every value read from the environment is a secret,
    /// but under the keys ``Interpolator/showsPlainly(_:)`` names.
    private func interpolated(_ pair: YAMLPair, secret: Bool = false) -> YAMLPair {
        let key = pair.key.scalar?.text ?? ""
        let secret = (secret || Interpolator.holdsSecrets(key)) && !Interpolator.showsPlainly(key)
        return YAMLPair(key: pair.key, value: interpolated(pair.value, secret: secret))
    }

    private func interpolated(_ node: YAMLNode, secret: Bool) -> YAMLNode {
        switch node {
        case .scalar(var scalar):
            scalar.text = diagnostics.interpolator.interpolate(scalar, diagnostics: diagnostics, secret: secret)
            if scalar.text.utf8.contains(0) {
                // A path, an argument, a header or a variable ends at a NUL: `a.sqlite\0.x` would open `a.sqlite`.
                diagnostics.error(
                    scalar.mark,
                    "a plugin option cannot hold a NUL character (\\0): paths, arguments and headers end at it")
            }
            return .scalar(scalar)
        case .sequence(let items, let mark): return .sequence(items.map { interpolated($0, secret: secret) }, mark)
        case .mapping(let pairs, let mark): return .mapping(pairs.map { interpolated($0, secret: secret) }, mark)
        }
    }

    /// An IANA time zone name (`Europe/Berlin`, `UTC`), checked against the system's zone database.
    private func timeZone(_ node: YAMLNode) -> String? {
        guard let name = diagnostics.string(node, "'time_zone'") else { return nil }
        if TimeZone(identifier: name) != nil { return name }
        let hint = Suggestion.hint(for: name, in: TimeZone.knownTimeZoneIdentifiers)
        diagnostics.error(
            node.mark,
            "unknown time zone '\(name)'" + (hint.isEmpty ? " (an IANA name such as Europe/Berlin, or UTC)" : hint))
        return nil
    }

    private func decodeNaming(_ node: YAMLNode, into settings: inout FileSettings) {
        for (key, value) in diagnostics.keyedPairs(node, "naming", allowed: FileSettings.namingKeys) ?? [] {
            switch key {
            case "entity_prefix": settings.entityPrefix = diagnostics.string(value, "'entity_prefix'") ?? ""
            case "attributes":
                settings.attributeNaming =
                    diagnostics.choice(value, "'attributes'", as: FileSettings.AttributeNaming.self) ?? .snakeCase
            default: settings.root = diagnostics.choice(value, "'root'", as: RootStyle.self) ?? .auto
            }
        }
    }

    private func decodeInflections(_ node: YAMLNode, into inflections: inout Inflections) {
        for (key, value) in diagnostics.keyedPairs(node, "inflections", allowed: FileSettings.inflectionKeys) ?? [] {
            switch key {
            case "uncountable":
                inflections.uncountable(diagnostics.strings(value, "'uncountable'") ?? [])
            case "acronyms":
                for word in diagnostics.strings(value, "'acronyms'") ?? [] { inflections.acronym(word) }
            default:
                for (left, right) in diagnostics.keyedPairs(value, "'\(key)'", allowed: []) ?? [] {
                    guard let replacement = diagnostics.string(right, "the value of '\(left)'") else { continue }
                    switch key {
                    case "irregular": inflections.irregular(left, replacement)
                    case "plural": inflections.plural(left, replacement)
                    case "singular": inflections.singular(left, replacement)
                    default: inflections.human(left, replacement)
                    }
                }
            }
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return path[..<slash].isEmpty ? "/" : String(path[..<slash])
    }
}
