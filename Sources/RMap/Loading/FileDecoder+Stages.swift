extension FileDecoder {
    /// A `stages:` list: each item a plugin block that must name its `plugin:`.
    func stages(_ node: YAMLNode, directory: String) -> [PluginConfig] {
        guard let items = node.sequence else {
            diagnostics.error(node.mark, "'stages' must be a list of stage blocks, found \(node.kindName)")
            return []
        }
        return items.compactMap { item in
            guard item.mapping == nil || item["plugin"] != nil else {
                diagnostics.error(
                    item.mark,
                    "a stage needs 'plugin:' (one of \(catalog.stages.keys.sorted().joined(separator: ", ")))")
                return nil
            }
            return plugin(item, "stage", plugins: catalog.stages, directory: directory)
        }
    }
}
