/// One plugin of a ``PluginRegistry`` as `rmap plugins` lists it: its kind,
/// name, option keys and the module that registered it.
public struct PluginDescription: Sendable, Hashable {
    /// What a plugin plugs into.
    public enum Kind: String, Sendable, CaseIterable {
        /// Named in `source:`.
        case source
        /// Named in `store:` or `--store`.
        case store
        /// Named in an attribute's `transform:`.
        case transformer
        /// Named in `stages:`, or registered to run in every run.
        case stage
    }

    /// The plugin's kind.
    public var kind: Kind
    /// The name mapping files use (for a stage that runs in every run, its ``Stage/name``).
    public var name: String
    /// The option keys its block accepts besides `plugin`.
    public var options: [String]
    /// The Swift module that registered it, e.g. `RMapHTTP`.
    public var module: String
    /// A stage that runs in every run (registered as an instance) rather than where `stages:` names it.
    public var always: Bool

    /// Creates a description.
    public init(kind: Kind, name: String, options: [String], module: String, always: Bool = false) {
        self.kind = kind
        self.name = name
        self.options = options
        self.module = module
        self.always = always
    }
}
