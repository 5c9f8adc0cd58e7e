/// Where a store keeps the links of one relationship (docs/mapping.md, "Tables and columns"),
/// and the SQL that follows them from one object to the objects it is related to.
///
/// A relationship's links live in one of four places, its own or its inverse's: foreign-key
/// columns of the source's row (`projects.owner_id`), a join table (`projects_team_members`),
/// the destination rows' foreign-key columns (a to-many whose inverse holds the column,
/// ordered by `owner_position` when it is `ordered`), or attributes that a `connect:
/// {foreign_key: ...}` compares (`person_id` with `id`, as connecting matches them).
///
/// ```swift
/// let path = try RelationshipPath(stored, from: project, "owner")
/// path.follow(from: row, handle: handle, into: &select)   // o."id" = ? with the project's owner_id
/// ```
struct RelationshipPath {
    /// Where the links are.
    enum Place {
        /// The source row's columns hold the destination's identity.
        case ownColumns([Int])
        /// The join table links the source's identity (its first columns) to the destination's.
        case joinTable(JoinTableLayout)
        /// The destination rows' columns hold the source's identity; `position` orders them.
        case childColumns([Int], position: Int?)
        /// The join table of the inverse links the destination's identity (its first columns) to the source's.
        case inverseJoinTable(JoinTableLayout)
        /// Attribute columns compared as connecting compares them: source column, destination column.
        case attributes([(source: Int, destination: Int)])
    }

    /// The relationship's destination entity.
    let destination: EntityType
    /// True for a to-many.
    let toMany: Bool
    /// Where its links are.
    let place: Place
    /// Conditions of the connection on the destination's rows and on the source's row. The
    /// source's (`when`) applies only where links are read from the connecting attributes: links
    /// the run wrote are kept as they were for the sources `when` left out (docs/mapping.md,
    /// "Connections"), so it does not filter them.
    private let destinationPredicate: Predicate
    private let sourcePredicate: Predicate
    private let source: EntityType
    /// For a one-to-one connected by foreign key (``OneToOneHolder``), the holder column and
    /// which side's table holds it: the source's (the to-one) or the destination's (its inverse).
    private let holder: (column: ColumnLayout, onSource: Bool)?
    /// The destinations that count: the destination's family, or the destination alone
    /// (`include_subentities: false`).
    let members: [EntityType]
    private let stored: StoredModel

    /// The path of `source`'s relationship `name`.
    ///
    /// - Throws: ``ReadError`` for an unknown relationship or one whose links the store does not keep.
    init(_ stored: StoredModel, from source: EntityType, _ name: String) throws(ReadError) {
        guard let index = source.relationshipIndex(name),
            let destination = stored.schema.type(named: source.mapping.relationships[index].destination)
        else { throw .unknownRelationship(entity: source.name, name: name) }
        let relationship = source.mapping.relationships[index]
        self.stored = stored
        self.source = source
        self.destination = destination
        toMany = relationship.kind == .toMany
        let connection = relationship.connection
        destinationPredicate = connection?.destinationPredicate ?? Predicate()
        members = connection?.includeSubentities == false ? [destination] : stored.schema.family(of: destination)
        if let place = Self.ownPlace(stored, source, index, destination) {
            self.place = place
        } else if let place = Self.inversePlace(stored, source, relationship, destination) {
            self.place = place
        } else {
            throw .linksNotStored(entity: source.name, relationship: name)
        }
        holder = Self.holder(of: source, index, place, stored.schema)
        let attributeColumns = Set(stored.binding(of: source).attributeColumns)
        switch place {
        case .attributes: sourcePredicate = connection?.sourcePredicate ?? Predicate()
        case .ownColumns(let columns) where columns.allSatisfy(attributeColumns.contains):
            sourcePredicate = connection?.sourcePredicate ?? Predicate()
        default: sourcePredicate = Predicate()
        }
    }

    /// The holder column of a one-to-one read through its connecting attributes.
    private static func holder(of source: EntityType, _ index: Int, _ place: Place, _ schema: GraphSchema)
        -> (column: ColumnLayout, onSource: Bool)?
    {
        guard case .attributes = place else { return nil }
        if let own = OneToOneHolder(source, relationship: index, in: schema) { return (own.column, true) }
        return OneToOneHolder.inverse(of: source, relationship: index, in: schema).map { ($0.column, false) }
    }

    /// The relationship's own column, join table or connecting attributes.
    private static func ownPlace(_ stored: StoredModel, _ source: EntityType, _ index: Int, _ destination: EntityType)
        -> Place?
    {
        let binding = stored.binding(of: source)
        if let held = binding.foreignKeys.first(where: { $0.relationship == index }) {
            return .ownColumns(held.columns)
        }
        if let join = binding.joins.first(where: { $0.relationship == index }) {
            return .joinTable(stored.layout.joinTables[join.join])
        }
        guard case .foreignKey(let pairs)? = source.mapping.relationships[index].connection?.rule else { return nil }
        return attributes(pairs.map { ($0.source, $0.destination) }, source, destination, stored)
    }

    /// The place of the inverse's links, seen from the other end.
    private static func inversePlace(
        _ stored: StoredModel, _ source: EntityType, _ relationship: RelationshipMapping, _ destination: EntityType
    ) -> Place? {
        guard let name = relationship.inverse, let inverse = destination.relationshipIndex(name) else { return nil }
        let binding = stored.binding(of: destination)
        if let held = binding.foreignKeys.first(where: { $0.relationship == inverse }) {
            let position = binding.positions.first { $0.relationship == inverse }?.column
            return .childColumns(held.columns, position: position)
        }
        if let join = binding.joins.first(where: { $0.relationship == inverse }) {
            return .inverseJoinTable(stored.layout.joinTables[join.join])
        }
        guard case .foreignKey(let pairs)? = destination.mapping.relationships[inverse].connection?.rule else {
            return nil
        }
        return attributes(pairs.map { ($0.destination, $0.source) }, source, destination, stored)
    }

    /// Pairs of attribute names (source's, destination's) as pairs of columns; `nil` when one is not an attribute.
    private static func attributes(
        _ names: [(String, String)], _ source: EntityType, _ destination: EntityType, _ stored: StoredModel
    ) -> Place? {
        let columns = names.compactMap { pair -> (source: Int, destination: Int)? in
            guard let from = source.attributeIndex(pair.0), let to = destination.attributeIndex(pair.1) else {
                return nil
            }
            return (
                stored.binding(of: source).attributeColumns[from], stored.binding(of: destination).attributeColumns[to]
            )
        }
        return columns.isEmpty || columns.count != names.count ? nil : .attributes(columns)
    }

    // MARK: - SQL

    /// Restricts `select` (over the destination's table) to the objects the source's row `row`
    /// (with handle `handle`) is related to, and orders them as the store keeps them; with
    /// `holders`, a one-to-one's sources that let go are left out (a store without the holder
    /// column is read without: every row there holds).
    func follow(from row: [Value], handle: RowReference, holders: Bool = true, into select: inout ObjectSelect) {
        let dialect = select.dialect
        let sourceTable = stored.table(of: source)
        let identity = select.table.identityNames.map(select.column)
        switch place {
        case .ownColumns(let columns):
            equal(identity, columns.map { row[$0] }, into: &select)
        case .childColumns(let columns, let position):
            equal(
                columns.map { select.column(select.table.columns[$0].name) }, sourceTable.identityValues(of: row),
                into: &select)
            if let position {
                select.order.append(
                    .init(expression: select.column(select.table.columns[position].name), type: .int, descending: false)
                )
            }
        case .joinTable(let join):
            joined(join, destinationFirst: false, identity, sourceTable.identityValues(of: row), into: &select)
        case .inverseJoinTable(let join):
            joined(join, destinationFirst: true, identity, sourceTable.identityValues(of: row), into: &select)
        case .attributes(let pairs):
            for pair in pairs {
                let column = select.table.columns[pair.destination]
                let domain = KeyDomain(column.type)
                let keys = row[pair.source].members.compactMap { CanonicalKey.value($0, in: domain) }
                let key = dialect.keyExpression(select.column(column.name), type: column.type)
                select.condition(
                    keys.isEmpty ? "1 = 0" : "\(key) IN (\(keys.map { _ in "?" }.joined(separator: ", ")))", keys)
            }
        }
        if let rows = stored.rows(of: members, alias: ObjectSelect.alias, dialect: dialect) { select.condition(rows) }
        if let holder, holders {
            // A source that let go of its one-to-one reads none, and is no destination's.
            let table = holder.onSource ? sourceTable.name : select.table.name
            select.holderColumns.append((table, holder.column.name))
            if holder.onSource {
                select.condition(
                    "EXISTS (SELECT 1 FROM \(dialect.quote(sourceTable.name)) AS h WHERE h.\(dialect.quote(dialect.rowHandle)) = ? "
                        + "AND \(OneToOneHolder.holds("h", holder.column, dialect: dialect)))", [.int(handle)])
            } else {
                select.condition(OneToOneHolder.holds(ObjectSelect.alias, holder.column, dialect: dialect))
            }
        }
        if !destinationPredicate.isEmpty {
            let condition = PredicateSQL.condition(
                destinationPredicate, of: destination, alias: ObjectSelect.alias,
                binding: stored.binding(of: destination),
                table: select.table, dialect: dialect)
            select.condition(condition.sql, condition.parameters)
        }
        if !sourcePredicate.isEmpty {
            let condition = PredicateSQL.condition(
                sourcePredicate, of: source, alias: "s", binding: stored.binding(of: source), table: sourceTable,
                dialect: dialect)
            select.condition(
                "EXISTS (SELECT 1 FROM \(dialect.quote(sourceTable.name)) AS s "
                    + "WHERE s.\(dialect.quote(dialect.rowHandle)) = ? AND \(condition.sql))",
                [.int(handle)] + condition.parameters)
        }
    }

    /// `a = ? AND b = ?`; no row when a value is null.
    private func equal(_ columns: [String], _ values: [Value], into select: inout ObjectSelect) {
        guard !values.contains(where: \.isNull) else {
            select.condition("1 = 0")
            return
        }
        select.condition(columns.map { "\($0) = ?" }.joined(separator: " AND "), values)
    }

    /// Joins the join table on the destination's identity and keeps the source's links, ordered
    /// by `position` when the join table keeps it. `destinationFirst`: the join table's source is
    /// the destination (an inverse's).
    private func joined(
        _ join: JoinTableLayout, destinationFirst: Bool, _ identity: [String], _ values: [Value],
        into select: inout ObjectSelect
    ) {
        let q = select.dialect.quote
        let sources = join.columns.prefix(join.sourceColumnCount).map { "j.\(q($0.name))" }
        let destinations = join.destinationColumns.map { "j.\(q($0.name))" }
        let (near, far) = destinationFirst ? (sources, destinations) : (destinations, sources)
        select.joinedTables.append(join.name)
        select.joins.append(
            "JOIN \(q(join.name)) AS j ON " + zip(near, identity).map { "\($0) = \($1)" }.joined(separator: " AND "))
        equal(far, values, into: &select)
        if join.ordered, !destinationFirst {
            select.order.append(.init(expression: "j.\(q("position"))", type: .int, descending: false))
        }
    }
}
