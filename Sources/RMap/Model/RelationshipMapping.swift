/// A relationship from one entity to another, and how it is connected.
public struct RelationshipMapping: Sendable, Hashable {
    /// To-one or to-many.
    public enum Kind: String, Sendable, Hashable {
        case toOne = "to_one"
        case toMany = "to_many"
    }

    /// What a new payload does to an existing to-many set.
    public enum Assignment: String, Sendable, Hashable, CaseIterable {
        case replace, union
    }

    /// What a record without the relationship's key does to it (`missing:`).
    public enum Missing: String, Sendable, Hashable, CaseIterable {
        /// The relationship is left as it was.
        case keep
        /// The relationship is emptied, as a `null` would (RestKit's `assignsNilForMissingRelationships`).
        case nullify
    }

    /// The relationship's name, e.g. `owner`.
    public var name: String
    /// To-one or to-many.
    public var kind: Kind
    /// The destination entity's name.
    public var destination: String
    /// The inverse relationship's name on the destination, when declared (or implied by a nested inverse).
    public var inverse: String?
    /// True when the payload embeds the destination records.
    public var nested: Bool = false
    /// `embedded: true`: a to-one whose destination is built from the record's own keys (RestKit's
    /// relationship mapping from a nil key path); its identity is the record's. Embedded relationships
    /// are nested too: the destination arrives inside its parent's record.
    public var embedded: Bool = false
    /// `identify_nested_by_parent_key`: the destination attributes a nested record takes from its
    /// parent before its identity is read, when its payload lacks them.
    public var parentKey: ParentKey?
    /// The payload key path of embedded records (nested relationships) and the
    /// stem of foreign-key column names; default: the inflected name.
    public var keyPath: [String]
    /// Replace or union, for to-many relationships.
    public var assignment: Assignment = .replace
    /// `ordered: true`: a to-many keeps its members in payload order, in the graph and in the store.
    public var ordered: Bool = false
    /// `missing: nullify`: a record without the key empties a nested relationship.
    public var missing: Missing = .keep
    /// How sources find their destinations, when not nested.
    public var connection: Connection?
    /// Where the relationship is declared.
    public var mark: Mark

    /// Creates a relationship mapping.
    public init(name: String, kind: Kind, destination: String, keyPath: [String], mark: Mark) {
        self.name = name
        self.kind = kind
        self.destination = destination
        self.keyPath = keyPath
        self.mark = mark
    }

    /// The payload key as users write it.
    public var key: String { keyPath.joined(separator: ".") }

    /// The pairs of ``parentKey``, `true` resolved through the inverse to-one's foreign key on
    /// `destination`: each pair's `source` is on the nested record, its `destination` on the parent.
    public func parentKeyPairs(destination: EntityMapping) -> [ForeignKeyPair] {
        switch parentKey {
        case .pairs(let pairs)?: return pairs
        case .inverse?:
            guard case .foreignKey(let pairs)? = inverse.flatMap(destination.relationship(named:))?.connection?.rule
            else { return [] }
            return pairs
        case nil: return []
        }
    }
}

/// Where a nested record's attributes come from its parent (`identify_nested_by_parent_key`),
/// as RestKit's `@parent.houseID` key paths fill a nested object's identification attributes.
public enum ParentKey: Sendable, Hashable {
    /// `true`: the foreign key of the inverse to-one, `{projectId: id}` for a task whose `project`
    /// connects by `foreign_key: {projectId: id}`.
    case inverse
    /// `{child attribute: parent attribute}`, written as the inverse to-one's `foreign_key` would
    /// be: each pair's `source` is on the nested record, its `destination` on the parent.
    case pairs([ForeignKeyPair])
}

/// A declarative `RKConnectionDescription`: how a relationship's source finds its destinations.
public struct Connection: Sendable, Hashable {
    /// The two ways of connecting.
    public enum Rule: Sendable, Hashable {
        /// Destinations whose attributes equal the source's; pairs are ANDed, collection values ORed.
        case foreignKey([ForeignKeyPair])
        /// A path of attribute and relationship names evaluated on the source object.
        case keyPath([String])
    }

    /// The rule.
    public var rule: Rule
    /// Whether sub-entities of the destination match too (default true).
    public var includeSubentities: Bool = true
    /// `when:`, the source predicate: only these sources are connected.
    public var sourcePredicate = Predicate()
    /// `where:`, the destination predicate: only these destinations are connected to.
    public var destinationPredicate = Predicate()
    /// Where the connection is declared.
    public var mark: Mark

    /// Creates a connection.
    public init(rule: Rule, mark: Mark) {
        self.rule = rule
        self.mark = mark
    }
}

/// One `source attribute -> destination attribute` pair of a foreign-key connection.
public struct ForeignKeyPair: Sendable, Hashable {
    /// The attribute on the relationship's source entity, e.g. `personId`.
    public var source: String
    /// The attribute on the destination entity, e.g. `id`.
    public var destination: String
    /// Where the pair is written.
    public var mark: Mark

    /// Creates a pair.
    public init(source: String, destination: String, mark: Mark) {
        self.source = source
        self.destination = destination
        self.mark = mark
    }
}

/// A conjunction of attribute conditions (`when` and `where`).
public struct Predicate: Sendable, Hashable {
    /// The conditions, all of which must hold.
    public var clauses: [Clause] = []

    /// Creates a predicate.
    public init(clauses: [Clause] = []) {
        self.clauses = clauses
    }

    /// True when there are no conditions.
    public var isEmpty: Bool { clauses.isEmpty }

    /// One attribute's condition.
    public struct Clause: Sendable, Hashable {
        /// The attribute name.
        public var attribute: String
        /// The condition.
        public var condition: Condition
        /// Where it is written.
        public var mark: Mark

        /// Creates a clause.
        public init(attribute: String, condition: Condition, mark: Mark) {
            self.attribute = attribute
            self.condition = condition
            self.mark = mark
        }
    }

    /// A condition on one value; operands are typed as the attribute.
    public enum Condition: Sendable, Hashable {
        case eq(Value)
        case ne(Value)
        case lt(Value)
        case le(Value)
        case gt(Value)
        case ge(Value)
        case `in`([Value])
        /// `null: true` (the value is null) or `null: false` (it is not).
        case null(Bool)
    }
}
