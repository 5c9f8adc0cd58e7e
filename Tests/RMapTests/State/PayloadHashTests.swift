import Foundation
import Testing

@testable import RMap

/// ``PayloadHash`` gives the same hash whether a payload is hashed whole, piece by piece or read
/// from its file a chunk at a time, and the same hashes as before files were read in chunks (the
/// run state remembers them across versions).
@Suite("Payload hash")
struct PayloadHashTests {
    static let text = String(repeating: "payload bytes ", count: 100) + "tail"

    @Test("known hashes are unchanged (xxHash64's for short inputs)")
    func knownHashes() {
        #expect(String(PayloadHash.of(""), radix: 16) == "ef46db3751d8e999")
        #expect(String(PayloadHash.of("a"), radix: 16) == "d24ec4f1a98c6e5b")
        #expect(String(PayloadHash.of("rmap"), radix: 16) == "5441e9d70cb2d1b0")
        #expect(
            String(PayloadHash.of(String(repeating: "0123456789abcdef", count: 2)), radix: 16) == "642a94958e71e6c5")
        #expect(String(PayloadHash.of(Self.text), radix: 16) == "69c3d8d2347af35e")
    }

    @Test("pieces combined in order hash as the whole, at every split")
    func pieces() {
        let bytes = Array(Self.text.utf8.prefix(200))
        bytes.withUnsafeBytes { whole in
            let expected = PayloadHash.of(whole)
            for first in 0...whole.count {
                for second in stride(from: first, through: whole.count, by: 7) {
                    var hasher = PayloadHasher()
                    hasher.combine(UnsafeRawBufferPointer(rebasing: whole[..<first]))
                    hasher.combine(UnsafeRawBufferPointer(rebasing: whole[first..<second]))
                    hasher.combine(UnsafeRawBufferPointer(rebasing: whole[second...]))
                    #expect(hasher.finalize() == expected, "split at \(first) and \(second)")
                }
            }
        }
    }

    @Test("a file longer than a chunk hashes as its bytes")
    func file() throws {
        let bytes = (0..<(3 << 20) + 45).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("payload-hash-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try PayloadHash.ofFile(atPath: path) == bytes.withUnsafeBytes { PayloadHash.of($0) })
    }
}
