/// A dictionary that holds at most `limit` entries, dropping the least
/// recently used one when a new entry would pass the limit.
///
/// Reads and writes are O(1): the entries form a doubly linked list through
/// array slots, most recently used at the head.
///
/// ```swift
/// var cache = LRUCache<String, Int>(limit: 2)
/// cache["a"] = 1; cache["b"] = 2; _ = cache["a"]; cache["c"] = 3   // "b" is dropped
/// ```
struct LRUCache<Key: Hashable & Sendable, Element: Sendable>: Sendable {
    private struct Slot: Sendable {
        var key: Key
        var element: Element
        var newer: Int?
        var older: Int?
    }

    /// The most entries held.
    let limit: Int
    private var slots: [Slot] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// Creates an empty cache holding at most `limit` entries (at least one).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many entries the cache holds.
    var count: Int { index.count }

    /// The entry of `key`, which becomes the most recently used; setting `nil` removes it.
    subscript(key: Key) -> Element? {
        mutating get {
            guard let slot = index[key] else { return nil }
            touch(slot)
            return slots[slot].element
        }
        set {
            guard let element = newValue else {
                remove(key)
                return
            }
            if let slot = index[key] {
                slots[slot].element = element
                touch(slot)
                return
            }
            if index.count == limit, let oldest { remove(slots[oldest].key) }
            let entry = Slot(key: key, element: element, newer: nil, older: newest)
            let slot: Int
            if let reused = free.popLast() {
                slots[reused] = entry
                slot = reused
            } else {
                slots.append(entry)
                slot = slots.count - 1
            }
            if let newest { slots[newest].newer = slot }
            newest = slot
            if oldest == nil { oldest = slot }
            index[key] = slot
        }
    }

    /// Removes every entry.
    mutating func removeAll() {
        self = LRUCache(limit: limit)
    }

    private mutating func remove(_ key: Key) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        free.append(slot)
    }

    private mutating func touch(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        slots[slot].older = newest
        slots[slot].newer = nil
        if let newest { slots[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if let newer { slots[newer].older = older } else { newest = older }
        if let older { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = nil
        slots[slot].older = nil
    }
}
