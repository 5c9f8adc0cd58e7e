import Foundation

/// A fast 64-bit content hash (xxHash64's rounds: four lanes over 8-byte words, then an
/// avalanche), to tell whether a payload's bytes changed since the last run. Not
/// cryptographic: it detects changes, it does not resist forgery.
///
/// ```swift
/// let hash = try PayloadHash.ofFile(atPath: "people.json")
/// ```
public enum PayloadHash {
    /// How much of a file is read at a time: the hash holds no more of it than this.
    private static let chunkSize = 1 << 20

    /// The hash of a file's bytes, read a chunk at a time (a file that is hashed and then skipped
    /// costs no more memory than one chunk).
    ///
    /// - Throws: the error opening or reading the file.
    public static func ofFile(atPath path: String) throws -> UInt64 {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var hasher = PayloadHasher()
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            chunk.withUnsafeBytes { hasher.combine($0) }
        }
        return hasher.finalize()
    }

    /// The hash of a string's UTF-8 bytes.
    public static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of `bytes`.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = PayloadHasher()
        hasher.combine(bytes)
        return hasher.finalize()
    }
}
