/// An entity's `delete_when` (MAPPING.md §8): the records that delete the
/// stored object they name instead of updating it (tombstones), and whether a
/// nested child that its parent's list no longer holds is deleted.
///
/// ```yaml
/// CRMPerson:
///   delete_when: { deleted: true }            # {"id": 3, "deleted": true} deletes person 3
/// CRMTask:
///   delete_when: { missing_from_parent: true } # a task its project no longer lists is deleted
/// ```
public struct Deletion: Sendable, Hashable {
    /// Records whose mapped values meet it are tombstones; `nil`: none are.
    public var tombstone: Predicate?
    /// A stored child that its parent's `replace` nested to-many no longer lists is deleted.
    public var missingFromParent = false

    /// No deletion: every record upserts, a child no longer listed loses its link only.
    public init(tombstone: Predicate? = nil, missingFromParent: Bool = false) {
        self.tombstone = tombstone
        self.missingFromParent = missingFromParent
    }
}
