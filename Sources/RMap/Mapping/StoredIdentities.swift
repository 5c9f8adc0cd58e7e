/// The identities a store already holds, for the entities whose mapping treats
/// an object new to the store differently from a stored one: defaults and
/// `required` apply to objects new to the **store**, not new to the run
/// (MAPPING.md §8), so a partial payload never wipes or rejects stored data.
///
/// Only roots with a `required` attribute or a `default` are listed; for the
/// others ``contains(root:identity:)`` is `false`, which nothing reads.
///
/// ```swift
/// let mapper = RecordMapper(graph: graph, transformers: [:])
/// mapper.storedIdentities = try store.storedIdentities(schema: graph.schema)
/// ```
public struct StoredIdentities: Sendable {
    private var byRoot: [Int: Set<IdentityKey>]

    /// No identities: every object is new to the store (an empty store, or a store that cannot tell).
    public init() {
        byRoot = [:]
    }

    /// The identities by root entity position (``EntityType/rootIndex``).
    public init(byRoot: [Int: Set<IdentityKey>]) {
        self.byRoot = byRoot
    }

    /// The roots of `schema` whose objects' newness matters: a member has a `required` or defaulted attribute.
    public static func roots(in schema: GraphSchema) -> [EntityType] {
        schema.roots.filter { root in
            schema.family(of: root).contains { member in
                member.mapping.attributes.contains { $0.required || $0.defaultValue != nil }
            }
        }
    }

    /// True when the store holds an object of `root`'s table with this identity.
    public func contains(root: Int, identity: IdentityKey) -> Bool {
        byRoot[root]?.contains(identity) ?? false
    }
}
