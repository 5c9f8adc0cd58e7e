import Foundation
import RMap

/// A temporary `.json` file holding one page's body, removed when released:
/// pages stream through it rather than through memory. It lives in the process's
/// ``PrivateFolder`` (mode 0600), which goes at exit or on a signal even when the
/// file's owner never gets to release it.
///
/// Its reads are `async` and run on a ``DedicatedThread`` each: parsing waits for the
/// thread that reads the file (`JSONFileStream`), and no task of the cooperative pool
/// waits on a file or on another thread.
final class SpoolFile: Sendable {
    /// Where the file is.
    let url: URL

    /// Creates a new empty file in the private folder (the transport writes it).
    ///
    /// - Throws: ``PrivateFolderError`` when it cannot be made.
    init() throws(PrivateFolderError) {
        url = URL(fileURLWithPath: try PrivateFolder.newFile(prefix: "page-", suffix: ".json"))
    }

    deinit {
        PrivateFolder.removeItem(url.path)
    }

    /// True when `other` holds the same bytes.
    func hasSameContents(as other: SpoolFile) async -> Bool {
        await reading { FileManager.default.contentsEqual(atPath: $0.url.path, andPath: other.url.path) }
    }

    /// The first bytes as text (enough for a message).
    func prefix(_ count: Int) async -> String {
        await reading { spool in
            guard let handle = FileHandle(forReadingAtPath: spool.url.path) else { return "" }
            defer { try? handle.close() }
            return String(decoding: (try? handle.read(upToCount: count)) ?? Data(), as: UTF8.self)
        }
    }

    /// The page's body: parsed whole unless it is a top-level array, which the mapper streams.
    ///
    /// - Throws: ``JSONError`` when a body that is not an array is not valid JSON.
    func page() async throws -> JSONValue? {
        try await reading { spool in
            guard spool.firstValueByte() != UInt8(ascii: "[") else { return nil }
            var document = JSONValue.null
            try JSONFileStream(path: spool.url.path).forEach { document = $0.value }
            return document
        }
    }

    /// The records of a top-level array body, counted as the mapper streams them.
    func arrayCount() async throws -> Int {
        try await reading { spool in
            var count = 0
            try JSONFileStream(path: spool.url.path).forEach { _ in count += 1 }
            return count
        }
    }

    /// The last record of a top-level array body, read as the mapper streams it (`nil` when empty).
    func lastElement() async throws -> JSONValue? {
        try await reading { spool in
            var last: JSONValue?
            try JSONFileStream(path: spool.url.path).forEach { last = $0.value }
            return last
        }
    }

    /// Runs `read` with this file on a thread of its own; the caller suspends meanwhile.
    private func reading<T: Sendable, Failure: Error>(
        _ read: @escaping @Sendable (SpoolFile) throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await DedicatedThread.run { [self] () throws(Failure) -> T in try read(self) }.get()
    }

    /// The first byte that is not whitespace or a byte-order mark, which says whether the body is an array.
    private func firstValueByte() -> UInt8? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        while let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            if let byte = chunk.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) {
                return byte
            }
        }
        return nil
    }
}
