import Foundation
import Testing

@testable import RMap

@Suite("JSONFileStream")
struct JSONFileStreamTests {
    /// Records whose strings hold brackets, commas, quotes and escaped backslashes,
    /// so that a wrong element boundary would show.
    static let arrayPayload = """
        [
          {"id": 1, "name": "a ] b, c", "tags": ["x", "}"], "price": 12.50},
          {"id": 2, "name": "quote \\" and \\\\", "nested": {"deep": [[1, 2], {"k": "v\\\\"}]}, "price": -0},
          "lonely \\\\",
          123456789012345678901234567890,
          true, null, [], {},
          {"id": 3, "name": "é 😀 \\ud83d\\ude00", "at": "2024-03-01T10:00:00.000Z", "n": 1e5}
        ]

        """

    @Test(
        "streams a top-level array in chunks whose edges cut through elements",
        arguments: [1, 2, 3, 7, 16, 64, 1 << 20])
    func arrayInChunks(chunkSize: Int) throws {
        let path = try temporaryFile(Self.arrayPayload)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = try #require(try JSONReader.parse(Self.arrayPayload, origin: path).array)
        var items: [JSONStreamItem] = []
        try JSONFileStream(path: path, chunkSize: chunkSize).forEach { items.append($0) }
        #expect(items.map(\.value) == whole)
        #expect(items.map(\.index) == Array(0..<whole.count))
        #expect(items.map(\.line) == [2, 3, 4, 5, 6, 6, 6, 6, 7])
        #expect(items.allSatisfy { !$0.isWholeDocument })
    }

    @Test("streams an empty array as no items")
    func emptyArray() throws {
        let path = try temporaryFile(" [ \n ] \n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var count = 0
        try JSONFileStream(path: path, chunkSize: 2).forEach { _ in count += 1 }
        #expect(count == 0)
    }

    @Test("streams JSON Lines, skipping blank lines", arguments: [".jsonl", ".ndjson"], [1, 5, 1 << 20])
    func jsonLines(suffix: String, chunkSize: Int) throws {
        let path = try temporaryFile("{\"a\": 1}\n\n  \n{\"a\": \"x\\ny\"}\r\n[3]", suffix: suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var items: [JSONStreamItem] = []
        try JSONFileStream(path: path, chunkSize: chunkSize).forEach { items.append($0) }
        #expect(
            items.map(\.value) == [
                .object(JSONObject([("a", .number("1"))])), .object(JSONObject([("a", .string("x\ny"))])),
                .array([.number("3")]),
            ])
        #expect(items.map(\.index) == [0, 1, 2])
        #expect(items.map(\.line) == [1, 4, 5])
    }

    @Test("yields any other top-level value once, whole", arguments: [4, 1 << 20])
    func wholeDocument(chunkSize: Int) throws {
        let text = "\u{FEFF}\n\n  {\"data\": [1, 2], \"next\": null}\n"
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var items: [JSONStreamItem] = []
        try JSONFileStream(path: path, chunkSize: chunkSize).forEach { items.append($0) }
        #expect(items.count == 1)
        #expect(items.first?.isWholeDocument == true)
        #expect(items.first?.line == 3)
        #expect(items.first?.value.object?["data"] == .array([.number("1"), .number("2")]))
    }

    @Test(
        "delivers the values before an error, then names the file, line and column",
        arguments: [
            ("[\n{\"a\":1},\n{\"a\":2}\n{\"a\":3}]", ".json", 2, "4:1: invalid JSON: expected ',' or ']'"),
            (#"[{"a":1},{"a":"#, ".json", 1, "1:15: invalid JSON: unexpected end inside an array or object"),
            ("[1, 2", ".json", 2, "1:6: invalid JSON: expected ',' or ']'"),
            ("[1,]", ".json", 1, "1:4: invalid JSON: expected a value"),
            ("[1] x", ".json", 1, "1:5: invalid JSON: unexpected content after the value"),
            ("[1, {\"a\" 1}]", ".json", 1, "1:10: invalid JSON: a missing or misplaced comma, colon, bracket or brace"),
            ("{\"a\":1}\n{\"a\":2} 3\n", ".jsonl", 1, "2:9: invalid JSON: unexpected content after the value"),
            (
                "{\"a\":1}\n\n[1 2]\n", ".jsonl", 1,
                "3:4: invalid JSON: a missing or misplaced comma, colon, bracket or brace"
            ),
            ("{\"a\": 1,}", ".json", 0, "1:9: invalid JSON: a missing or misplaced comma, colon, bracket or brace"),
        ])
    func errors(text: String, suffix: String, delivered: Int, position: String) throws {
        let path = try temporaryFile(text, suffix: suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for chunkSize in [1, 3, 1 << 20] {
            var count = 0
            let error = try #require(throws: JSONError.self) {
                try JSONFileStream(path: path, chunkSize: chunkSize).forEach { _ in count += 1 }
            }
            #expect(count == delivered)
            #expect(error.description == "\(path):\(position)")
        }
    }

    @Test("reports invalid UTF-8 at the bad byte")
    func invalidUTF8() throws {
        let bytes = Array("[\"ok\",\n\"a".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        let path = try temporaryFile(Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: JSONError.self) {
            try JSONFileStream(path: path, chunkSize: 4).forEach { _ in }
        }
        #expect(error.description == "\(path):2:3: invalid UTF-8")
        #expect(error.offset == 9)
    }

    @Test("a missing file fails on creation, naming it")
    func missingFile() {
        let error = #expect(throws: JSONError.self) { try JSONFileStream(path: "/nonexistent/people.json") }
        #expect(error?.description == "/nonexistent/people.json: cannot open the file: No such file or directory")
    }

    @Test("errors thrown by the body stop the stream and propagate")
    func bodyError() throws {
        struct Stop: Error {}
        let path = try temporaryFile("[1, 2, 3]")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var seen = 0
        #expect(throws: Stop.self) {
            try JSONFileStream(path: path).forEach { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }

    @Test("streams a ~16 MB array (16 chunks) element by element (peak memory is measured by scripts/bench)")
    func largeFile() throws {
        let record =
            #"{"id": %d, "name": "Person %d", "price": 12.50, "at": "2024-03-01T10:00:00.000Z", "#
            + #""tags": ["a", "b"], "address": {"street": "Main St", "zip": "01234", "geo": [1.5, -2.25]}, "note": null}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-large-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let count = try writeLargeArray(to: path, record: record, bytes: 16 << 20)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size >= 16 << 20)

        var seen = 0
        try JSONFileStream(path: path).forEach { item in
            #expect(item.index == seen)
            if item.value.object?["id"] != .number(String(seen)) {
                Issue.record("element \(seen) has the wrong id")
            }
            seen += 1
        }
        #expect(seen == count)
    }

    // MARK: - Helpers

    private func temporaryFile(_ text: String, suffix: String = ".json") throws -> String {
        try temporaryFile(Data(text.utf8), suffix: suffix)
    }

    private func temporaryFile(_ data: Data, suffix: String = ".json") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-\(UUID())\(suffix)").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `[record, record, ...]` of at least `bytes` bytes, 1 MB at a time; returns the record count.
    private func writeLargeArray(to path: String, record: String, bytes: Int) throws -> Int {
        try Data().write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var written = 0
        var count = 0
        var block = "[\n"
        while written + block.utf8.count < bytes {
            block += (count == 0 ? "" : ",\n") + String(format: record, count, count)
            count += 1
            if block.utf8.count >= 1_000_000 {
                try handle.write(contentsOf: Data(block.utf8))
                written += block.utf8.count
                block = ""
            }
        }
        try handle.write(contentsOf: Data((block + "\n]\n").utf8))
        return count
    }
}
