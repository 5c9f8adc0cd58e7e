/// Counts what a YAML stream's aliases bring, so that a few bytes of nested
/// aliases (a "billion laughs") fail fast instead of expanding without end.
///
/// An alias shares its anchor's node, but every later walk of the tree visits
/// it once per alias: the budget charges each alias the nodes of its anchor's
/// tree, aliases inside it included.
struct AliasBudget {
    /// The nodes of the tree built so far, each alias counted with its anchor's nodes.
    private(set) var nodes = 0
    private var aliases = 0
    private var aliasedNodes = 0
    private var anchorSizes: [String: Int] = [:]

    /// Counts one scalar, sequence or mapping.
    mutating func countNode() { nodes += 1 }

    /// Remembers the size of the node anchored as `anchor`, built since ``nodes`` was `start`.
    mutating func anchor(_ anchor: String?, from start: Int) {
        if let anchor { anchorSizes[anchor] = nodes - start }
    }

    /// Charges one alias of `anchor`.
    ///
    /// - Throws: ``YAMLError`` at `mark` past ``YAMLParser/maxAliases`` aliases or
    ///   ``YAMLParser/maxAliasedNodes`` nodes brought by aliases.
    mutating func charge(_ anchor: String, at mark: Mark) throws(YAMLError) {
        let size = anchorSizes[anchor] ?? 1
        aliases += 1
        aliasedNodes += size
        nodes += size
        if aliases > YAMLParser.maxAliases {
            throw YAMLError(mark: mark, problem: "more than \(YAMLParser.maxAliases) aliases")
        }
        if aliasedNodes > YAMLParser.maxAliasedNodes {
            throw YAMLError(
                mark: mark,
                problem: "aliases expand to more than \(YAMLParser.maxAliasedNodes) nodes (nested aliases multiply)")
        }
    }
}
