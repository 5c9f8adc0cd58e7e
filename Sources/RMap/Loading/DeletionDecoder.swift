/// Decodes an entity's `delete_when`: a predicate of its attributes (as `when`
/// and `where`), and the key `missing_from_parent`.
struct DeletionDecoder {
    let diagnostics: Diagnostics

    /// The key that deletes a nested child its parent's list no longer holds.
    static let missingFromParent = "missing_from_parent"

    /// The deletion rules of `node` on `entity`; `entities` are the model's, to check that
    /// `missing_from_parent` names a nested child.
    func decode(_ node: YAMLNode, on entity: EntityMapping, in entities: [EntityMapping]) -> Deletion {
        let what = "'delete_when' of entity '\(entity.name)'"
        guard case .mapping(let pairs, let mark) = node else {
            diagnostics.error(node.mark, "\(what) must be a mapping of attributes to conditions")
            return Deletion()
        }
        var deletion = Deletion()
        let flag = pairs.first { $0.key.scalar?.text == Self.missingFromParent }
        if let flag {
            deletion.missingFromParent = diagnostics.bool(flag.value, "'\(Self.missingFromParent)'") ?? false
            // The child keeps its parent in a foreign key: the inverse of a nested `replace` to-many.
            let nested = entities.contains { parent in
                parent.relationships.contains {
                    $0.nested && $0.kind == .toMany && $0.assignment == .replace && $0.inverse != nil
                        && $0.destination == entity.name
                }
            }
            if deletion.missingFromParent, !nested {
                diagnostics.error(
                    flag.key.mark,
                    "'\(Self.missingFromParent)' of entity '\(entity.name)' needs a parent: "
                        + "no nested 'replace' to-many with an inverse holds '\(entity.name)'")
            }
        }
        let conditions = pairs.filter { $0.key.scalar?.text != Self.missingFromParent }
        if !conditions.isEmpty {
            deletion.tombstone = PredicateDecoder(diagnostics: diagnostics).predicate(
                .mapping(conditions, mark), on: entity, what: what)
        }
        return deletion
    }
}
