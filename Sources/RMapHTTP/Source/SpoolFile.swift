import Foundation
import RMap

/// A temporary `.json` file holding one page's body, removed when released:
/// pages stream through it rather than through memory.
final class SpoolFile {
    /// Where the file is.
    let url: URL

    /// Names a new file in the temporary directory (the transport creates it).
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-page-\(UUID().uuidString).json")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// True when `other` holds the same bytes.
    func hasSameContents(as other: SpoolFile) -> Bool {
        FileManager.default.contentsEqual(atPath: url.path, andPath: other.url.path)
    }

    /// The first bytes as text (enough for a message).
    func prefix(_ count: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: count)) ?? Data(), as: UTF8.self)
    }

    /// The page's body: parsed whole unless it is a top-level array, which the mapper streams.
    ///
    /// - Throws: ``JSONError`` when a body that is not an array is not valid JSON.
    func page() throws -> JSONValue? {
        guard firstValueByte() != UInt8(ascii: "[") else { return nil }
        var document = JSONValue.null
        try JSONFileStream(path: url.path).forEach { document = $0.value }
        return document
    }

    /// The records of a top-level array body, counted as the mapper streams them.
    func arrayCount() throws -> Int {
        var count = 0
        try JSONFileStream(path: url.path).forEach { _ in count += 1 }
        return count
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
