import Foundation
import Testing

@testable import RMapHTTP

/// A recording's bodies are copied a piece at a time with every secret replaced, wherever the
/// pieces are cut.
@Suite("Redacting copy")
struct RedactingCopyTests {
    @Test("secrets are hidden anywhere in a large body, across the pieces it is read in", arguments: [0, 1, 5, 11])
    func largeBody(offset: Int) throws {
        let directory = try TemporaryDirectory()
        let source = directory.url.appendingPathComponent("in")
        let destination = directory.url.appendingPathComponent("out")
        // The secret starts `offset` bytes before the end of the first 64 KiB piece.
        let secret = "tok-0123456789"
        let filler = String(repeating: "a", count: (1 << 16) - offset)
        let text = "\(filler)\(secret)\(filler)s3cret\(secret)"
        try Data(text.utf8).write(to: source)
        try RedactingCopy.copy(source, to: destination, hiding: [secret, "s3cret"])
        let copied = try String(contentsOf: destination, encoding: .utf8)
        #expect(copied == "\(filler)***\(filler)******")
    }

    @Test("a body in memory is written the same way; the longest secret wins where two overlap")
    func memory() throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("out")
        try RedactingCopy.write(
            Data(#"{"access_token": "abc123", "note": "abc"}"#.utf8), to: destination, hiding: ["abc", "abc123"])
        #expect(try String(contentsOf: destination, encoding: .utf8) == #"{"access_token": "***", "note": "***"}"#)
    }
}
