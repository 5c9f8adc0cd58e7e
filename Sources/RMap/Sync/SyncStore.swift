import Foundation

/// The library's sync API over a store: finds local changes, plans the
/// requests that send them back, edits objects (change, insert, delete), and
/// records what the server acknowledged.
///
/// ```swift
/// let sync = SyncStore(store: try SQLiteStore(path: "crm.sqlite"), model: model)
/// let ada = try sync.objects(of: "CRMPerson").first { $0["id"] == .int(1) }!
/// try sync.update(ada, ["email": .string("ada@lovelace.org")])
/// print(try sync.plan().text)   // PUT /people/1.json {"person":{"email":"ada@lovelace.org"}}
/// ```
///
/// Every method runs in its own small transaction, or joins the scope it is
/// called in (``read(_:)``, ``write(_:)``): reads take no write lock and do not
/// check the schema. A `SyncStore` is not `Sendable`: use it from one task at a time.
public final class SyncStore {
    /// The model whose entities the store holds.
    public let model: MappingModel
    let sync: SyncSchema
    let backend: any SyncBackend
    /// The scope running now, if any.
    var scope: Scope?
    /// True once a read found the model's tables in place: reads do not look again.
    var schemaChecked = false
    /// The open batch (``batched(_:)``) that the write scopes run now join, if any.
    var batch: SyncBatch?

    /// Creates the API over a store built on ``SyncBackend`` primitives (SQLite, PostgreSQL, memory, JSON).
    public convenience init(store: any BackendStore, model: MappingModel) {
        self.init(backend: store.backend, model: model)
    }

    /// Creates the API over a store engine's primitives.
    public init(backend: any SyncBackend, model: MappingModel) {
        self.model = model
        self.backend = backend
        sync = SyncSchema(schema: GraphSchema(model: model))
    }

    // MARK: - Changes and plan

    /// Every local change against the base: creations, updates (writable columns only) and deletions.
    ///
    /// - Throws: the store's errors.
    public func changes() throws -> [SyncChange] {
        try read { try ChangeDetector(sync: sync, backend: backend).changes() }
    }

    /// The requests that would send every local change, in dependency order; nothing is sent.
    ///
    /// - Parameter suffix: the suffix of each entity's paths (`.json` unless its http source sets another).
    public func plan(suffix: (String) -> String = { _ in ".json" }) throws -> PushPlan {
        try withoutActuallyEscaping(suffix) { suffix in
            try PlanBuilder(sync: sync, builder: RequestBuilder(sync: sync, suffix: suffix)).plan(changes())
        }
    }

    // MARK: - Objects

    /// The objects of an entity (its sub-entities' included) that have a row.
    ///
    /// - Throws: ``SyncError`` for an unknown entity, or the store's errors.
    public func objects(of entity: String) throws -> [LocalObject] {
        let type = try sync.entity(named: entity)
        let family = Set(sync.schema.family(of: type.type).map(\.name))
        return try read {
            let table = type.table
            let bases = Set(try backend.scanBase(table).map { IdentityKey(table.identityValues(of: $0)) })
            return try backend.scanRows(table).compactMap { row in
                guard let member = sync.entity(ofRow: row.values, table: type.tableIndex),
                    family.contains(member.type.name)
                else { return nil }
                return object(row, member, isNew: !bases.contains(IdentityKey(table.identityValues(of: row.values))))
            }
        }
    }

    /// Changes attributes of an object locally (by attribute name); the change is pending until pushed.
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``SyncError`` for an unknown attribute, or the store's errors.
    @discardableResult
    public func update(_ object: LocalObject, _ values: [String: Value]) throws -> LocalObject {
        let entity = try sync.entity(named: object.entity)
        return try editLocally {
            var row = try currentRow(object, entity)
            for (name, value) in values { row[try column(name, of: entity)] = value }
            try backend.updateRow(entity.table, reference: object.reference, values: row)
            return self.object(StoredRow(reference: object.reference, values: row), entity, isNew: object.isNew)
        }
    }

    /// Points a to-one relationship at another object (or at nothing), writing its foreign key.
    ///
    /// The destination may be new: its temporary identity is written, and the
    /// push sends it first and rewrites the key with the identity the server assigns.
    @discardableResult
    public func link(_ object: LocalObject, _ relationship: String, to destination: LocalObject?) throws -> LocalObject
    {
        let entity = try sync.entity(named: object.entity)
        guard let position = entity.type.relationshipIndex(relationship),
            let group = referenceColumns(entity, relationship: position)
        else {
            throw SyncError.noForeignKeyRelationship(entity: object.entity, relationship: relationship)
        }
        return try editLocally {
            var row = try currentRow(object, entity)
            for (offset, column) in group.enumerated() { row[column] = destination?.identity[offset] ?? .null }
            try backend.updateRow(entity.table, reference: object.reference, values: row)
            return self.object(StoredRow(reference: object.reference, values: row), entity, isNew: object.isNew)
        }
    }

    /// Inserts a new object; the next push creates it on the server.
    ///
    /// An integer identity left out gets a temporary negative value, which
    /// other objects can point at (``link(_:_:to:)``) until the server assigns
    /// the real one; other identities (names, slugs) must be given.
    ///
    /// - Throws: ``SyncError`` for an unknown attribute or a missing non-integer identity.
    @discardableResult
    public func insert(_ entity: String, _ values: [String: Value]) throws -> LocalObject {
        let mapping = try sync.entity(named: entity)
        let table = mapping.table
        return try editLocally {
            var row = [Value](repeating: .null, count: table.columns.count)
            for (name, value) in values { row[try column(name, of: mapping)] = value }
            if let discriminator = table.discriminator { row[discriminator] = .string(mapping.typeValue) }
            for column in table.identity where row[column].isNull {
                guard table.columns[column].type == .int else {
                    throw SyncError.missingIdentity(entity: entity, attribute: table.columns[column].name)
                }
                row[column] = .int(try temporaryIdentity(table, column: column))
            }
            try backend.upsertRows(table, [row])
            let key = IdentityKey(table.identityValues(of: row))
            guard
                let stored = try backend.scanRows(table).last(where: {
                    IdentityKey(table.identityValues(of: $0.values)) == key
                })
            else { throw SyncError.notStored(entity: entity) }
            return object(stored, mapping, isNew: true)
        }
    }

    /// Deletes an object locally; the next push deletes it on the server (an
    /// object never pushed just disappears).
    public func delete(_ object: LocalObject) throws {
        let entity = try sync.entity(named: object.entity)
        let table = entity.table
        try editLocally {
            let row = try currentRow(object, entity)
            let identity = table.identityValues(of: row)
            let base = try backend.fetch(table, identities: [identity])[IdentityKey(identity)]?.base
            try backend.delete(table, identities: [identity])
            if let base { try backend.upsertBase(table, [base]) }
        }
    }

    // MARK: - Acknowledgements

    /// Records that the server accepted `request`: the object's row and base
    /// become what was sent with the server's answer laid over it (server-side
    /// values such as `updated_at`); a created object takes the identity from
    /// the answer or, when the body is empty, from `location`'s last segment,
    /// and every foreign key and join-table link that held its temporary identity
    /// gets the real one. When the store already holds an object under the real
    /// identity (a run imported it while the `POST` was in flight), the two are
    /// one object: merged three-way (``CreatedObjectMerge``, local edits kept),
    /// stored once. A deleted object's base is dropped. The request's
    /// push-journal entry goes in the same transaction.
    ///
    /// - Returns: the temporary identity and the real one, when they differ.
    /// - Throws: ``SyncError`` when a created object's identity cannot be found.
    @discardableResult
    public func acknowledge(
        _ request: PlannedRequest, answer: JSONValue?, location: String?, suffix: String = ".json"
    ) throws -> (from: [Value], to: [Value])? {
        let change = request.change
        let entity = try sync.entity(named: change.entity)
        let table = entity.table
        let journalKey = change.journalKey(table: table.name)
        if change.kind == .delete {
            try write(journal: true) {
                try backend.deleteBase(table, identities: [change.identity])
                try forgetRememberedPayloads()
                try backend.delete(PushJournal.table, identities: [[.string(journalKey)]])
            }
            return nil
        }
        guard let reference = change.reference else { return nil }
        var values = answer.map { sync.merging($0, into: change.values, of: entity) } ?? change.values
        if change.kind == .create,
            answer?.object == nil || IdentityKey(table.identityValues(of: values)) == IdentityKey(change.identity)
        {
            if let identity = identity(fromLocation: location, suffix: suffix, table: table) {
                for (offset, column) in table.identity.enumerated() { values[column] = identity[offset] }
            } else if table.identity.contains(where: { table.columns[$0].type == .int }) {
                throw SyncError.answerWithoutIdentity(
                    change: change.label, attributes: table.identity.map { table.columns[$0].name })
            }
        }
        let old = change.identity
        let new = table.identityValues(of: values)
        try write(journal: true) {
            let merged =
                try old != new && mergeIntoImported(values, reference: reference, change: change, entity: entity)
            if !merged {
                try backend.updateRow(table, reference: reference, values: values)
                try backend.settleBase(table, [values])
            }
            try forgetRememberedPayloads()
            try backend.delete(PushJournal.table, identities: [[.string(journalKey)]])
            if old != new, !IdentityKey(old).isIncomplete {
                try moveReferences(to: entity.tableIndex, from: old, to: new)
            }
        }
        return old != new ? (old, new) : nil
    }

    /// The references of `request`'s change rewritten: each foreign key holding `from` in `table` now holds `to`.
    func rewriting(_ change: SyncChange, table destination: Int, from old: [Value], to new: [Value]) throws
        -> SyncChange
    {
        var change = change
        let table = try sync.entity(named: change.entity).tableIndex
        for group in sync.references where group.table == table && group.destination == destination {
            guard group.columns.map({ change.values[$0] }) == old else { continue }
            for (offset, column) in group.columns.enumerated() { change.values[column] = new[offset] }
        }
        return change
    }

    // MARK: - Helpers

    /// A ``write(_:)`` whose writes are local edits, pending until pushed (``SyncBackend/setLocalEdits(_:)``).
    private func editLocally<Result>(_ body: () throws -> Result) throws -> Result {
        try write { try backend.editingLocally(body) }
    }

    private func identity(fromLocation location: String?, suffix: String, table: TableLayout) -> [Value]? {
        guard table.identity.count == 1, let location,
            var segment = location.split(separator: "?").first?.split(separator: "/").last.map(String.init)
        else { return nil }
        if !suffix.isEmpty, segment.hasSuffix(suffix) { segment.removeLast(suffix.count) }
        let text = segment.removingPercentEncoding ?? segment
        return ValueConverter.value(from: .string(text), as: table.columns[table.identity[0]].type).map { [$0] }
    }

    private func temporaryIdentity(_ table: TableLayout, column: Int) throws -> Int64 {
        var lowest: Int64 = 0
        for row in try backend.scanRows(table) {
            if case .int(let value) = row.values[column] { lowest = min(lowest, value) }
        }
        for base in try backend.scanBase(table) {
            if case .int(let value) = base[column] { lowest = min(lowest, value) }
        }
        return lowest - 1
    }

    private func referenceColumns(_ entity: SyncSchema.EntitySync, relationship: Int) -> [Int]? {
        let binding = sync.layout.bindings[entity.type.index]
        if let held = binding.foreignKeys.first(where: { $0.relationship == relationship }) { return held.columns }
        let mapping = entity.type.mapping.relationships[relationship]
        guard case .foreignKey(let pairs) = mapping.connection?.rule,
            let destination = sync.schema.type(named: mapping.destination)
        else { return nil }
        let root = sync.schema.root(of: destination)
        let columns = root.identityIndices.compactMap { identity in
            pairs.first { $0.destination == root.mapping.attributes[identity].name }
                .flatMap { entity.type.attributeIndex($0.source) }.map { binding.attributeColumns[$0] }
        }
        return columns.count == root.identityIndices.count ? columns : nil
    }

    private func column(_ name: String, of entity: SyncSchema.EntitySync) throws -> Int {
        if let index = entity.type.attributeIndex(name) {
            return sync.layout.bindings[entity.type.index].attributeColumns[index]
        }
        if let index = entity.table.columnIndex(name), case .foreignKey = entity.table.roles[index] { return index }
        throw SyncError.unknownAttribute(entity: entity.type.name, attribute: name)
    }

    private func currentRow(_ object: LocalObject, _ entity: SyncSchema.EntitySync) throws -> [Value] {
        guard let row = try backend.scanRows(entity.table).first(where: { $0.reference == object.reference }) else {
            throw SyncError.noLongerStored(entity: object.entity, identity: "\(IdentityKey(object.identity))")
        }
        return row.values
    }

    private func object(_ row: StoredRow, _ entity: SyncSchema.EntitySync, isNew: Bool) -> LocalObject {
        let columns = sync.layout.bindings[entity.type.index].attributeColumns
        var values: [String: Value] = [:]
        for (attribute, column) in zip(entity.type.mapping.attributes, columns) {
            values[attribute.name] = row.values[column]
        }
        return LocalObject(
            entity: entity.type.name, reference: row.reference, values: values,
            identity: entity.table.identityValues(of: row.values), isNew: isNew)
    }
}
