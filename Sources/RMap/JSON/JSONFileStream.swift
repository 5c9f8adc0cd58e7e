import Foundation

/// One value read from a payload file by ``JSONFileStream``.
public struct JSONStreamItem: Sendable {
    /// The value.
    public var value: JSONValue
    /// The 0-based element index in a top-level array, or the 0-based index
    /// among the non-blank lines of a JSON Lines file; 0 for a whole document.
    public var index: Int
    /// True when the file's top-level value is not an array and this is all of it.
    public var isWholeDocument: Bool
    /// The 1-based line where the value starts.
    public var line: Int?

    /// Creates an item.
    public init(value: JSONValue, index: Int, isWholeDocument: Bool, line: Int?) {
        self.value = value
        self.index = index
        self.isWholeDocument = isWholeDocument
        self.line = line
    }
}

/// Streams the records of a payload file without holding the whole file.
///
/// - A top-level array yields each element in turn.
/// - A path ending `.jsonl` or `.ndjson` yields the value of each non-blank line.
/// - Any other top-level value (an object) is yielded once, whole, with
///   ``JSONStreamItem/isWholeDocument`` set; only this case reads the whole file.
///
/// The file is read in chunks (1 MiB by default) and each complete element is
/// parsed by simdjson, so memory stays bounded by the chunk and the largest element.
///
/// ```swift
/// try JSONFileStream(path: "payloads/people.json").forEach { item in
///     print(item.index, item.value.object?["name"] ?? .null)
/// }
/// ```
public struct JSONFileStream: Sendable {
    /// The file read.
    public let path: String
    /// Bytes read at a time.
    let chunkSize: Int

    /// Creates a stream over the file at `path`.
    ///
    /// - Throws: ``JSONError`` when the file cannot be opened.
    public init(path: String) throws(JSONError) {
        try self.init(path: path, chunkSize: 1 << 20)
    }

    /// Creates a stream that reads `chunkSize` bytes at a time.
    init(path: String, chunkSize: Int) throws(JSONError) {
        _ = try FileReader(path: path)
        self.path = path
        self.chunkSize = chunkSize
    }

    /// Calls `body` with each value of the file, in order.
    ///
    /// Values before an error in the file are delivered before the error is thrown.
    /// A background thread reads and parses the file a little ahead of `body`
    /// (groups of up to 128 items parsed from at most ``prefetchedBytes`` of JSON, or one group, none spanning
    /// two chunks), so parsing overlaps the caller's work; `body` runs on the
    /// calling thread. When `body` throws, the background thread stops and closes
    /// the file before the error propagates.
    ///
    /// - Throws: ``JSONError`` when the file cannot be read or is not valid JSON
    ///   (naming the path, line and column), or whatever `body` throws.
    public func forEach(_ body: (JSONStreamItem) throws -> Void) throws {
        try forEach(prepare: { _ in () }, { item, _ in try body(item) })
    }

    /// Calls `body` with each value of the file and what `prepare` made of it,
    /// in order, as ``forEach(_:)``; `prepare` runs on the background thread,
    /// so work that needs nothing from the caller's thread moves off it.
    ///
    /// The background thread prepares only while it is ahead (the items queued and
    /// those `body` works through cost at least half the queue, checked item by
    /// item): when `body` is waiting for items, they come without (`nil`), and the
    /// caller does that work itself. So neither thread idles while the other has
    /// work that either could do.
    ///
    /// - Throws: as ``forEach(_:)``.
    public func forEach<Prepared: Sendable>(
        prepare: @escaping @Sendable (JSONStreamItem) -> Prepared,
        _ body: (JSONStreamItem, Prepared?) throws -> Void
    ) throws {
        let queue = PrefetchQueue<(JSONStreamItem, Prepared?)>(capacity: Self.prefetchedBytes)
        let thread = Thread { [self] in
            do {
                try parse(into: queue, prepare: prepare)
                queue.finish(throwing: nil)
            } catch {
                queue.finish(throwing: error)
            }
        }
        thread.name = "rmap-json-read"
        thread.start()
        defer { queue.close() }
        var consumed: [(JSONStreamItem, Prepared?)] = []
        while let group = try queue.next(givingBack: consume consumed) {
            for (item, prepared) in group { try body(item, prepared) }
            consumed = group
        }
    }

    /// Bytes of JSON whose parsed items the background thread holds ready for ``forEach(_:)``:
    /// enough to even out which of the two threads is ahead (two groups of small records left
    /// each waiting for the other a quarter of the time; eight cut mapping 1.4M records from
    /// about 5 s to 4 s), few enough that large nested records stay one group ahead (their
    /// trees cost memory in proportion to their text).
    static let prefetchedBytes = 128 << 10
}
