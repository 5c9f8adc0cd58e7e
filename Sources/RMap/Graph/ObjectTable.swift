/// The objects of one root entity and its sub-entities, packed by column:
/// an object is a row number, its values are bytes in a ``ValueArena`` and
/// its links are row numbers in the destination's table (a to-one's in a
/// column, a to-many's as a span of a ``LinkPool``).
///
/// This is what keeps a run's graph small (tens of bytes an object rather than
/// hundreds): no heap object, values array or relationship array per object.
/// Rows are never renumbered; a removed row is only marked.
final class ObjectTable {
    /// The table's slots (see ``RelationshipSlots``).
    let slots: [RelationshipSlot]
    /// Rows ever added, removed ones included.
    private(set) var rowCount = 0
    /// Rows removed (rare: records rejected after mapping).
    private(set) var removed = Set<Int>()
    private var typeIndices = ChunkedColumn<UInt16>()
    private var locations = ChunkedColumn<ValueArena.Location>()
    private var arena = ValueArena()
    private var origins = OriginColumn()
    /// Per slot, the links, each slot in an object of its own: setting one slot's links never
    /// touches another's storage, so ``PersistWriter`` may read slots that connecting leaves
    /// alone while it sets the others.
    private let links: [SlotLinks]
    /// Per entity position: where a lone identity attribute is (-1: the identity is not one attribute).
    private let identityPositions: [Int]
    private var intIdentities = IntegerIdentityIndex()
    private var otherIdentities: [[Value]: Int32] = [:]

    init(slots: [RelationshipSlot], identityPositions: [Int]) {
        self.slots = slots
        self.identityPositions = identityPositions
        links = slots.map { _ in SlotLinks() }
    }

    /// The rows not removed, in the order added.
    var rows: LazyFilterSequence<Range<Int>> {
        (0..<rowCount).lazy.filter { [removed] in removed.isEmpty || !removed.contains($0) }
    }

    /// How many rows are not removed.
    var count: Int { rowCount - removed.count }

    /// Calls `body` with each row not removed, in the order added (``rows`` without a lazy filter per step).
    func forEachRow(_ body: (Int) -> Void) {
        for row in 0..<rowCount where removed.isEmpty || !removed.contains(row) { body(row) }
    }

    /// Adds a row of entity `type` holding `values`, from record `record` of payload `source`
    /// (see ``origin(of:)``); it has no links yet.
    func add(type: Int, values: [Value?], source: Int32, record: Int32) -> Int {
        typeIndices.append(UInt16(type))
        locations.append(arena.append(values))
        origins.append(source: source, record: record)
        for (slot, kind) in slots.enumerated() {
            if kind.toMany { links[slot].toMany.addRow() } else { links[slot].toOne.append(-1) }
        }
        rowCount += 1
        return rowCount - 1
    }

    /// Marks a row removed.
    func remove(_ row: Int) {
        removed.insert(row)
    }

    // MARK: - Entity and values

    func type(of row: Int) -> Int { Int(typeIndices[row]) }

    func setType(of row: Int, to type: Int) { typeIndices[row] = UInt16(type) }

    func values(of row: Int) -> [Value?] { arena.values(at: locations[row]) }

    func forEachValue(of row: Int, _ body: (Int, Value) -> Void) { arena.forEachValue(at: locations[row], body) }

    func value(of row: Int, at position: Int) -> Value? { arena.value(at: locations[row], position: position) }

    func setValues(of row: Int, to values: [Value?]) { locations[row] = arena.append(values) }

    /// Sets one value of `row` (see ``ValueArena/set(_:position:at:)``: the row is not rewritten).
    func setValue(of row: Int, at position: Int, to value: Value?) {
        locations[row] = arena.set(value, position: position, at: locations[row])
    }

    /// How many bytes the rows' values take.
    var valueBytes: Int { arena.byteCount }

    // MARK: - Origin

    /// The payload number (-1: none) and record index (-1: not a record's) of the row's last record.
    func origin(of row: Int) -> (source: Int32, record: Int32) { origins[row] }

    func setOrigin(of row: Int, source: Int32, record: Int32) {
        origins.set(row, source: source, record: record)
    }

    // MARK: - Links

    /// The rows a relationship slot links `row` to, in order.
    func links(of row: Int, slot: Int) -> [Int32] {
        if slots[slot].toMany { return links[slot].toMany.links(of: row) }
        let destination = links[slot].toOne[row]
        return destination < 0 ? [] : [destination]
    }

    /// The one row of a to-one slot (or the first of a to-many's).
    func firstLink(of row: Int, slot: Int) -> Int? {
        if slots[slot].toMany { return links[slot].toMany.first(of: row).map(Int.init) }
        let destination = links[slot].toOne[row]
        return destination < 0 ? nil : Int(destination)
    }

    /// Sets a to-one slot's link.
    func setLink(of row: Int, slot: Int, to destination: Int32?) {
        links[slot].toOne[row] = destination ?? -1
    }

    /// Sets a slot's links (a to-one keeps the first).
    func setLinks(of row: Int, slot: Int, to destinations: some Collection<Int32>) {
        if slots[slot].toMany {
            links[slot].toMany.setLinks(of: row, to: destinations)
        } else {
            links[slot].toOne[row] = destinations.first ?? -1
        }
    }

    /// Records that a payload set `row`'s slot (its key held a list or `null`), so that an empty
    /// relationship is written as empty rather than left as stored.
    func markAssigned(_ row: Int, slot: Int) {
        links[slot].assigned.insert(Int32(row))
    }

    /// Whether a payload set `row`'s slot (see ``markAssigned(_:slot:)``).
    func isAssigned(_ row: Int, slot: Int) -> Bool {
        links[slot].assigned.contains(Int32(row))
    }

    // MARK: - Identity map

    /// The row with this identity.
    func row(identity: IdentityKey) -> Int? {
        if let number = Self.lone(identity) { return row(integerIdentity: number) }
        return otherIdentities[identity.values].map(Int.init)
    }

    /// The row whose identity is the lone integer `number`.
    func row(integerIdentity number: Int64) -> Int? {
        intIdentities.row(for: number, keyOf: integerIdentity).map(Int.init)
    }

    /// Calls `body` with each row not removed whose identity is a lone integer, and that integer:
    /// the identity map's contents, in row order (the order their values lie in).
    func forEachIntegerIdentity(_ body: (_ row: Int, _ identity: Int64) -> Void) {
        forEachRow { row in
            if let identity = integerIdentity(of: Int32(row)) { body(row, identity) }
        }
    }

    /// True when some identity is not a lone integer.
    var hasOtherIdentities: Bool { !otherIdentities.isEmpty }

    /// Makes `row` the one with `identity`.
    func index(_ row: Int, identity: IdentityKey) {
        if let number = Self.lone(identity) {
            intIdentities.set(Int32(row), for: number, keyOf: integerIdentity)
        } else {
            otherIdentities[identity.values] = Int32(row)
        }
    }

    /// Forgets `identity` when `row` holds it.
    func unindex(_ row: Int, identity: IdentityKey) {
        guard self.row(identity: identity) == row else { return }
        if let number = Self.lone(identity) {
            intIdentities.remove(Int32(row), for: number)
        } else {
            otherIdentities[identity.values] = nil
        }
    }

    /// The lone integer identity a row holds.
    private func integerIdentity(of row: Int32) -> Int64? {
        let position = identityPositions[type(of: Int(row))]
        guard position >= 0 else { return nil }
        return arena.integer(at: locations[Int(row)], position: position)
    }

    /// A lone integer identity (the usual `id`), kept in the map without an array.
    private static func lone(_ identity: IdentityKey) -> Int64? {
        guard identity.values.count == 1, case .int(let number) = identity.values[0] else { return nil }
        return number
    }
}

/// One relationship slot's links: a to-one's destination row per row (-1: none), or a to-many's spans.
private final class SlotLinks {
    var toOne = ChunkedColumn<Int32>()
    var toMany = LinkPool()
    /// Rows whose links a payload set (nested relationships only; connecting sets none).
    var assigned = Set<Int32>()
}
