/// A query of a store's objects (``StoreReader/objects(of:)``, ``StoreObject/relationship(_:)``):
/// narrowed with ``filter(_:)``, ordered with ``order(_:)``, windowed with ``limit(_:offset:)``,
/// and read a page at a time as an `AsyncSequence`, or all at once with ``fetchAll()``.
///
/// ```swift
/// let query = store.objects(of: "CRMPerson").filter(["admin": true]).order(.ascending("lastName")).limit(10)
/// for try await person in query { print(person) }
/// let first = try await query.fetchOne()
/// ```
///
/// A query is a value: each method returns a new one, and nothing is read until it is iterated.
/// Names are checked then: an unknown entity, attribute or relationship throws ``ReadError``.
/// Without an order, objects come in the store's order: the order rows were written in, and a
/// relationship's `ordered: true` positions first.
public struct ObjectQuery: AsyncSequence, Sendable {
    /// The objects read.
    public typealias Element = StoreObject

    let reader: StoreReader
    var request: ObjectRequest

    /// How many rows a page reads.
    static let pageSize = 500

    /// The query narrowed to the objects whose attributes (by name) hold the values of
    /// `conditions` (ANDed with the conditions it has): `["lastName": "Lovelace"]`, `["personId":
    /// nil]`, `["id": .oneOf([1, 2])]`. Values compare as rmap compares values (`12.50` equals `12.5`).
    public func filter(_ conditions: [String: QueryValue]) -> ObjectQuery {
        var query = self
        query.request.conditions += conditions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return query
    }

    /// The query in the order of `keys` (attribute names; nulls first ascending, last
    /// descending), then the store's; replaces the order it had.
    public func order(_ keys: [SortKey]) -> ObjectQuery {
        var query = self
        query.request.sort = keys
        return query
    }

    /// The query in the order of `keys`, then the store's.
    public func order(_ keys: SortKey...) -> ObjectQuery { order(keys) }

    /// At most `limit` objects (`nil`: all), after skipping `offset`.
    public func limit(_ limit: Int?, offset: Int = 0) -> ObjectQuery {
        var query = self
        query.request.limit = limit.map { Swift.max(0, $0) }
        query.request.offset = Swift.max(0, offset)
        return query
    }

    /// Every object of the query, in order: for queries known to be small (a `limit`, a relationship).
    ///
    /// - Throws: ``ReadError``, or the engine's errors.
    public func fetchAll() async throws -> [StoreObject] {
        var objects: [StoreObject] = []
        try await forEach { objects.append($0) }
        return objects
    }

    /// The first object of the query; `nil` when it has none.
    ///
    /// - Throws: ``ReadError``, or the engine's errors.
    public func fetchOne() async throws -> StoreObject? {
        try await limit(1, offset: request.offset).fetchAll().first
    }

    /// Calls `body` with each object, in order, a page read at a time.
    ///
    /// - Throws: ``ReadError``, the engine's errors, or what `body` throws (reading stops then).
    public func forEach(_ body: (StoreObject) async throws -> Void) async throws {
        var iterator = makeAsyncIterator()
        while let object = try await iterator.next() { try await body(object) }
    }

    /// An iterator that reads a page whenever the one before is used up.
    public func makeAsyncIterator() -> Iterator { Iterator(query: self) }

    /// Reads the query's objects a page at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private let query: ObjectQuery
        private var page: [StoreObject] = []
        private var position = 0
        /// Where the next page starts; `nil` once the last was read.
        private var next: [Value]?
        private var started = false
        /// How many objects the query's limit still allows.
        private var remaining: Int?

        init(query: ObjectQuery) {
            self.query = query
            remaining = query.request.limit
        }

        /// The next object; `nil` after the last.
        public mutating func next() async throws -> StoreObject? {
            while position == page.count {
                guard !started || next != nil, remaining ?? 1 > 0 else { return nil }
                let size = Swift.min(ObjectQuery.pageSize, remaining ?? ObjectQuery.pageSize)
                let read = try await query.reader.page(
                    query.request, after: next, limit: size, offset: started ? 0 : query.request.offset)
                started = true
                (page, position, next) = (read.objects, 0, read.next)
            }
            position += 1
            remaining = remaining.map { $0 - 1 }
            return page[position - 1]
        }
    }
}
