import Foundation
import Testing

@testable import RMap

/// The background reading of ``JSONFileStream``: order, errors, early stops and
/// the bound on how far it reads ahead, on real files with small chunks.
@Suite("JSONFileStream prefetch")
struct JSONFileStreamPrefetchTests {
    /// Where each test writes its files; a fresh one per test.
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Every record is 13 bytes (the id padded with spaces) plus `,\n`, so record `i` starts at byte `2 + 15 * i`.
    static func arrayText(count: Int) -> String {
        let records = (0..<count).map { #"{"id":"# + String(repeating: " ", count: 6 - String($0).count) + "\($0)}" }
        return "[\n" + records.joined(separator: ",\n") + "\n]\n"
    }

    @Test(
        "delivers every item in order, whether groups end at chunks or at the group size",
        arguments: [16, 1000, 1 << 20])
    func order(chunkSize: Int) throws {
        let path = try file("people.json", Self.arrayText(count: 5000))
        var items: [JSONStreamItem] = []
        try JSONFileStream(path: path, chunkSize: chunkSize).forEach { items.append($0) }
        #expect(items.count == 5000)
        #expect(items.map(\.index) == Array(0..<5000))
        #expect(items.map(\.value) == (0..<5000).map { .object(JSONObject([("id", .number(String($0)))])) })
        #expect(items.map(\.line) == (0..<5000).map { $0 + 2 })
    }

    @Test("runs the body on the calling thread")
    func callerThread() throws {
        let path = try file("people.json", Self.arrayText(count: 3000))
        let caller = pthread_self()
        var elsewhere = 0
        try JSONFileStream(path: path, chunkSize: 64).forEach { _ in
            if pthread_equal(pthread_self(), caller) == 0 { elsewhere += 1 }
        }
        #expect(elsewhere == 0)
    }

    @Test("prepares items on the reading thread while it is ahead, and hands each over with its item, in order")
    func prepareOnReadingThread() throws {
        // Twice the read-ahead: the reading thread fills its queue, then keeps it full.
        let count = 2 * JSONFileStream.prefetchedBytes / 15
        let path = try file("people.json", Self.arrayText(count: count))
        let caller = pthread_self()
        var pairs: [(index: Int, prepared: (double: Int, onCaller: Bool)?)] = []
        try JSONFileStream(path: path, chunkSize: 1 << 20).forEach(
            prepare: { item in (item.index * 2, pthread_equal(pthread_self(), caller) != 0) },
            { item, prepared in
                // A slow caller: the reading thread gets ahead.
                if item.index % 100 == 0 { usleep(2000) }
                pairs.append((item.index, prepared))
            })
        #expect(pairs.map(\.index) == Array(0..<count))
        let prepared = pairs.filter { $0.prepared != nil }
        #expect(prepared.count > count / 4)
        #expect(prepared.allSatisfy { $0.prepared?.double == $0.index * 2 && $0.prepared?.onCaller == false })
    }

    @Test("leaves items unprepared while the caller waits for them")
    func noPreparingWhileBehind() throws {
        let path = try file("people.json", Self.arrayText(count: 3000))
        var first: Bool?
        try JSONFileStream(path: path, chunkSize: 1 << 20).forEach(
            prepare: { _ in () },
            { item, prepared in if item.index == 0 { first = prepared != nil } })
        // The first group is read while nothing is queued: the caller is waiting.
        #expect(first == false)
    }

    @Test("delivers the items before an error deep in the file, then the error", arguments: [7, 256, 1 << 20])
    func errorAfterManyChunks(chunkSize: Int) throws {
        let text = String(Self.arrayText(count: 3000).dropLast(3)) + ",\n{\"id\" 1}\n]\n"
        let path = try file("people.json", text)
        var indexes: [Int] = []
        let error = try #require(throws: JSONError.self) {
            try JSONFileStream(path: path, chunkSize: chunkSize).forEach { indexes.append($0.index) }
        }
        #expect(indexes == Array(0..<3000))
        #expect(
            error.description == "\(path):3002:7: invalid JSON: a missing or misplaced comma, colon, bracket or brace")
    }

    @Test("an error thrown by the body stops the reading thread, which closes the file before it propagates")
    func bodyErrorClosesFile() throws {
        struct Stop: Error {}
        let path = try file("people.json", Self.arrayText(count: 20000))
        var seen = 0
        var openWhileReading = false
        #expect(throws: Stop.self) {
            try JSONFileStream(path: path, chunkSize: 64).forEach { _ in
                seen += 1
                if seen == 10 {
                    openWhileReading = OpenFile(path: path) != nil
                    throw Stop()
                }
            }
        }
        #expect(seen == 10)
        #expect(openWhileReading)
        #expect(OpenFile(path: path) == nil)
    }

    @Test("closes the file when the whole sequence has been delivered")
    func endClosesFile() throws {
        let path = try file("people.json", Self.arrayText(count: 2000))
        var count = 0
        try JSONFileStream(path: path, chunkSize: 64).forEach { _ in count += 1 }
        #expect(count == 2000)
        #expect(OpenFile(path: path) == nil)
    }

    @Test("reads ahead of the body, but only a few chunks")
    func boundedReadAhead() throws {
        let path = try file("people.json", Self.arrayText(count: 20000))
        var ahead: Int?
        try JSONFileStream(path: path, chunkSize: 64).forEach { item in
            guard item.index == 500 else { return }
            let consumed = 2 + 15 * 501
            // The reading thread runs on by itself; wait until it is past this item.
            let deadline = Date().addingTimeInterval(10)
            var position = OpenFile(path: path)?.position ?? 0
            while position <= consumed && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
                position = OpenFile(path: path)?.position ?? 0
            }
            Thread.sleep(forTimeInterval: 0.05)
            ahead = (OpenFile(path: path)?.position ?? 0) - consumed
        }
        let bytesAhead = try #require(ahead)
        #expect(bytesAhead > 0)
        // The queued groups, the producer's next one and its buffer: each a chunk or two.
        #expect(bytesAhead <= JSONFileStream.prefetchedBytes + 4 * 64)
    }

    @Test("streams JSON Lines across many chunks", arguments: [5, 100, 1 << 20])
    func jsonLines(chunkSize: Int) throws {
        let text = (0..<3000).map { "{\"n\": \($0)}\n" + ($0 % 7 == 0 ? "\n" : "") }.joined()
        let path = try file("events.jsonl", text)
        var items: [JSONStreamItem] = []
        try JSONFileStream(path: path, chunkSize: chunkSize).forEach { items.append($0) }
        #expect(items.map(\.index) == Array(0..<3000))
        #expect(items.map(\.value) == (0..<3000).map { .object(JSONObject([("n", .number(String($0)))])) })
        #expect(items.allSatisfy { !$0.isWholeDocument })
    }

    @Test("yields a document larger than many chunks once, whole", arguments: [3, 64, 1 << 20])
    func wholeDocument(chunkSize: Int) throws {
        let text = "\n {\"data\": " + Self.arrayText(count: 500) + ", \"next\": null}\n"
        let path = try file("page.json", text)
        var items: [JSONStreamItem] = []
        try JSONFileStream(path: path, chunkSize: chunkSize).forEach { items.append($0) }
        #expect(items.count == 1)
        #expect(items.first?.isWholeDocument == true)
        #expect(items.first?.line == 2)
        #expect(items.first?.value.object?["data"]?.array?.count == 500)
        #expect(OpenFile(path: path) == nil)
    }

    @Test("an invalid whole document fails after delivering nothing")
    func invalidWholeDocument() throws {
        let path = try file("page.json", "{\"data\": [1, 2}\n")
        var count = 0
        let error = try #require(throws: JSONError.self) {
            try JSONFileStream(path: path, chunkSize: 4).forEach { _ in count += 1 }
        }
        #expect(count == 0)
        #expect(error.description.hasPrefix("\(path):1:"))
    }

    @Test("a file removed after creating the stream fails when read, naming it")
    func fileRemoved() throws {
        let path = try file("gone.json", "[1]")
        let stream = try JSONFileStream(path: path)
        try FileManager.default.removeItem(atPath: path)
        let error = try #require(throws: JSONError.self) { try stream.forEach { _ in } }
        #expect(error.description == "\(path): cannot open the file: No such file or directory")
    }

    /// Writes `text` to the file `name` in ``directory`` and returns its path.
    private func file(_ name: String, _ text: String) throws -> String {
        try directory.write(name, text)
        return directory.url.appendingPathComponent(name).path
    }
}

// MARK: - Helpers

/// A descriptor this process holds open on a given file, found through `/proc/self/fd`.
private struct OpenFile {
    /// The descriptor's read offset, from `/proc/self/fdinfo`.
    let position: Int

    init?(path: String) {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard
            let descriptor = descriptors.first(where: {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target
            }),
            let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("pos:") }),
            let position = Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
        else { return nil }
        self.position = position
    }
}
