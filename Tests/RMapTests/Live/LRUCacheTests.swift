import Testing

@testable import RMapHTTP

@Suite("LRU cache")
struct LRUCacheTests {
    @Test("the least recently used entry goes first, and the count never passes the limit")
    func eviction() {
        var cache = LRUCache<String, Int>(limit: 2)
        cache["a"] = 1
        cache["b"] = 2
        #expect(cache["a"] == 1)
        cache["c"] = 3
        #expect(cache.count == 2)
        #expect(cache["b"] == nil)
        #expect(cache["a"] == 1 && cache["c"] == 3)
        cache["a"] = nil
        cache["d"] = 4
        cache["e"] = 5
        #expect(cache.count == 2)
        #expect(cache["c"] == nil && cache["d"] == 4 && cache["e"] == 5)
    }
}
