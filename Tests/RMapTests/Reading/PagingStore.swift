@testable import RMap

/// A store whose engine is a ``RecordingEngine`` over another store's: its ``queryRows`` tell a
/// test how many rows each of a reader's statements returned.
final class PagingStore: Store {
    private let store: any Store
    private let recording: RecordingEngine

    /// The rows each query returned, in order; shared with the test while a reader owns the store.
    var queryRows: Locked<[Int]> { recording.queryRows }

    init(_ store: any Store) throws {
        self.store = store
        recording = RecordingEngine(try store.engine())
    }

    func engine() throws -> any SQLEngine { recording }

    func load(_ layout: StoreLayout) throws { try store.load(layout) }
}
