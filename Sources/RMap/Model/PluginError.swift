/// A plugin that is not registered or could not be made: what went wrong, and
/// where in the mapping files when a block is at fault.
///
/// ```swift
/// do { _ = try registry.makeStore(config) } catch let error as PluginError {
///     if case .unknownPlugin(.store, let name) = error.kind { print("no store named \(name)") }
/// }
/// ```
public struct PluginError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No plugin of this kind is registered under `name`.
        case unknownPlugin(kind: PluginDescription.Kind, name: String)
        /// A plugin's block whose options cannot make the plugin: `problem` says which and why,
        /// e.g. `the json store needs a 'path'`.
        case invalidOptions(problem: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The block or option at fault, when the error comes from a mapping file.
    public var mark: Mark?

    /// Creates an error.
    public init(_ kind: Kind, at mark: Mark? = nil) {
        self.kind = kind
        self.mark = mark
    }

    /// `mark: sentence`, e.g. `crm.yml:3:9: unknown source plugin 'htp'`.
    public var description: String {
        let sentence =
            switch kind {
            case .unknownPlugin(let kind, let name): "unknown \(kind.rawValue) plugin '\(name)'"
            case .invalidOptions(let problem): problem
            }
        return mark.map { "\($0): \(sentence)" } ?? sentence
    }
}

extension PluginError {
    /// A block whose options cannot make the plugin, at `mark`.
    public static func invalidOptions(_ problem: String, at mark: Mark? = nil) -> PluginError {
        PluginError(.invalidOptions(problem: problem), at: mark)
    }
}
