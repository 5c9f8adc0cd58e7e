/// A `source:` or `store:` block: the plugin's name and its options as written.
///
/// Options stay a YAML node so that each plugin reads its own keys (with
/// marks for its errors); string scalars in it are already interpolated.
public struct PluginConfig: Sendable, Hashable {
    /// The plugin's registered name, e.g. `file`, `http`, `sqlite`.
    public var plugin: String
    /// The block's other keys, as a mapping node.
    public var options: YAMLNode
    /// The folder of the mapping file that declares the block; relative paths resolve against it.
    public var baseDirectory: String
    /// Where the block is declared.
    public var mark: Mark

    /// Creates a plugin configuration.
    public init(plugin: String, options: YAMLNode, baseDirectory: String, mark: Mark) {
        self.plugin = plugin
        self.options = options
        self.baseDirectory = baseDirectory
        self.mark = mark
    }

    /// The option under `key`, when present.
    public subscript(key: String) -> YAMLNode? { options[key] }

    /// A path option resolved against ``baseDirectory`` (an absolute path is not joined), normalised
    /// as messages show it (``DisplayPath``): `../samples/people.json` in `mappings/crm.yml` is
    /// `samples/people.json`.
    public func resolvePath(_ path: String) -> String {
        DisplayPath.normalize(path.hasPrefix("/") || baseDirectory.isEmpty ? path : "\(baseDirectory)/\(path)")
    }
}
