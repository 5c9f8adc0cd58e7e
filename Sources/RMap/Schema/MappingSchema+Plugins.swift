/// The `$defs` of plugin blocks (`source:`, `store:`, a `stages:` item) and transformers,
/// made from a ``PluginCatalog``: one `if plugin is X then X's options` rule per plugin.
extension MappingSchema {
    /// A plugin block of one kind: `plugin:` names one of `plugins`, the other keys are its options.
    static func plugins(_ plugins: [String: [String]], kind: String, defaultPlugin: String?) -> SchemaNode {
        let names = plugins.keys.sorted()
        var pluginKey = SchemaNode.enumeration(names)
        if let defaultPlugin {
            pluginKey = pluginKey.described(
                "The \(kind) plugin (rmap plugins lists them).", default: .string(defaultPlugin))
        } else {
            pluginKey = pluginKey.described("The \(kind) plugin (rmap plugins lists them).")
        }
        let rules = names.map { name -> JSONValue in
            var condition: [(key: String, value: JSONValue)] = [
                ("properties", .object(JSONObject([("plugin", SchemaNode.constant(.string(name)).json)])))
            ]
            if name != defaultPlugin { condition.append(("required", .array([.string("plugin")]))) }
            let options = (plugins[name] ?? []).map { option in
                (option, PluginOptionSchemas.schema(kind: kind, plugin: name, option: option))
            }
            let plugin = SchemaNode.constant(.string(name)).described("The \(kind) plugin '\(name)'.")
            let then = SchemaNode.object([("plugin", plugin)] + options)
            return .object(JSONObject([("if", .object(JSONObject(condition))), ("then", then.json)]))
        }
        var node = SchemaNode([
            ("type", .string("object")), ("properties", .object(JSONObject([("plugin", pluginKey.json)]))),
        ])
        if defaultPlugin == nil { node.keywords.append(("required", .array([.string("plugin")]))) }
        node.keywords.append(("allOf", .array(rules)))
        return node
    }

    /// A transformer: a registered name, or `{exec: [program, ...], env: {...}}`.
    static func transformer(_ names: [String]) -> SchemaNode {
        SchemaNode.anyOf([
            SchemaNode.enumeration(names),
            SchemaNode.object(
                ExecTransformer.options.map { option in
                    (option, PluginOptionSchemas.schema(kind: "transformer", plugin: "exec", option: option))
                },
                required: ["exec"]),
        ]).described("A transformer by name (rmap plugins lists them), or a program: {exec: [python3, upcase.py]}.")
    }
}
