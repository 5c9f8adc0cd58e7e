import Foundation
import Testing

@testable import RMap

/// An ``ObjectQuery`` read a page at a time: pages follow each other by key, so that orders with
/// repeated values and nulls neither skip nor repeat an object across a page's end, and a cursor
/// holds one page, not the query's rows.
@Suite("ObjectQuery paging")
struct ObjectQueryPagingTests {
    typealias F = ReadingFixture

    /// The notes' identities and ranks as the fixture wrote them, in the store's order.
    private static let notes: [(id: Int64, rank: Int64?)] = (1...Int64(F.noteCount)).map {
        ($0, $0 % 10 == 0 ? nil : $0 % 7)
    }

    /// The notes' identities by rank (nulls first), ties in the store's order.
    private static let byRank = notes.sorted { ($0.rank ?? -1, $0.id) < ($1.rank ?? -1, $1.id) }.map(\.id)

    /// The notes' identities by rank descending (nulls last), ties in the store's order.
    private static let byRankDescending = notes.sorted { ($1.rank ?? -1, $0.id) < ($0.rank ?? -1, $1.id) }.map(\.id)

    @Test("every note comes once, in order, across pages of repeated and null ranks", arguments: StoreKind.all)
    func acrossPages(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let notes = fixture.reader.objects(of: "CRMNote")
        #expect(F.ids(try await notes.fetchAll()) == Self.notes.map(\.id))
        #expect(F.ids(try await notes.order(.ascending("rank")).fetchAll()) == Self.byRank)
        #expect(F.ids(try await notes.order(.descending("rank")).fetchAll()) == Self.byRankDescending)
        let byRankThenId = Self.notes.sorted { ($0.rank ?? -1, -$0.id) < ($1.rank ?? -1, -$1.id) }.map(\.id)
        #expect(F.ids(try await notes.order(.ascending("rank"), .descending("id")).fetchAll()) == byRankThenId)
    }

    @Test("a window larger than a page starts at its offset and stops at its limit", arguments: StoreKind.all)
    func windowAcrossPages(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let notes = fixture.reader.objects(of: "CRMNote").order(.descending("rank"))
        #expect(F.ids(try await notes.limit(700, offset: 450).fetchAll()) == Array(Self.byRankDescending[450..<1150]))
        #expect(F.ids(try await notes.limit(nil, offset: 1200).fetchAll()) == Array(Self.byRankDescending[1200...]))
        let withRank = notes.filter(["rank": .oneOf([0, 6])])
        let expected = Self.byRankDescending.filter { [0, 6].contains(Self.notes[Int($0) - 1].rank) }
        #expect(F.ids(try await withRank.fetchAll()) == expected)
    }

    @Test("a cursor reads a page at a time, and no further than it is iterated", arguments: StoreKind.all)
    func cursorHoldsAPage(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let store = try PagingStore(try kind.open(fixture.directory))
        let queryRows = store.queryRows
        let reader = StoreReader(store: store, model: fixture.model)
        var count = 0
        for try await _ in reader.objects(of: "CRMNote").order(.ascending("rank")) { count += 1 }
        #expect(count == F.noteCount)
        // 1,234 notes: two pages of 500, one of 234; no statement read more than a page.
        #expect(queryRows.withLock { $0 } == [500, 500, 234])
        queryRows.withLock { $0 = [] }
        for try await note in reader.objects(of: "CRMNote") {
            #expect(note.identity == [.int(1)])
            break
        }
        #expect(queryRows.withLock { $0 } == [500])
        queryRows.withLock { $0 = [] }
        #expect(try await reader.objects(of: "CRMNote").order(.descending("id")).fetchOne()?.identity == [.int(1234)])
        #expect(queryRows.withLock { $0 } == [1])
    }

    @Test("objects stored between two pages come in a later page", arguments: StoreKind.all)
    func laterRows(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        var iterator = fixture.reader.objects(of: "CRMNote").order(.ascending("id")).makeAsyncIterator()
        #expect(try await iterator.next()?.identity == [.int(1)])
        try StoreKind.editLocally(
            try kind.open(fixture.directory), model: fixture.model,
            ["INSERT INTO notes (id, rank, text) VALUES (5000, 1, 'late')"])
        var last: [Value]?
        var count = 1
        while let note = try await iterator.next() {
            last = note.identity
            count += 1
        }
        #expect(count == F.noteCount + 1)
        #expect(last == [.int(5000)])
    }
}
