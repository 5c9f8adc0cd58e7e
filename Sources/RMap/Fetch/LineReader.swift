import Foundation

/// Reads a pipe line by line in large chunks, in time linear in its bytes
/// however long a line is: each byte is searched for a newline once.
///
/// A UTF-8 byte order mark at the very start is dropped, as files drop it;
/// the bytes are otherwise handed on as they came, for the JSON parser to
/// check (invalid UTF-8 is its error, never silently replaced).
struct LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes: the bytes from `start` up to here hold none.
    private var searched = 0
    private var finished = false
    private var atStart = true

    init(handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline, or `nil` at the end.
    mutating func next() -> [UInt8]? {
        while true {
            if let line = bufferedLine() { return line }
            searched = buffer.count
            if finished {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Array(buffer[start...])
            }
            buffer.removeFirst(start)
            searched -= start
            start = 0
            read()
        }
    }

    /// The next line and the lines after it that are read already, or `nil` at the end.
    mutating func nextLines() -> [[UInt8]]? {
        guard let first = next() else { return nil }
        var lines = [first]
        while let line = bufferedLine() { lines.append(line) }
        return lines
    }

    /// The next line if the buffer holds its newline.
    private mutating func bufferedLine() -> [UInt8]? {
        guard let newline = buffer[searched...].firstIndex(of: 0x0A) else { return nil }
        defer {
            start = newline + 1
            searched = start
        }
        return Array(buffer[start..<newline])
    }

    /// Appends the next chunk (at the start, at least the bytes a byte order mark takes), dropping a leading mark.
    private mutating func read() {
        repeat {
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        } while atStart && !finished && buffer.count < UTF8BOM.bytes.count
        if atStart {
            atStart = false
            buffer.removeFirst(UTF8BOM.length(at: buffer))
        }
    }
}

extension LineReader {
    /// Hands each line of `handle`, with its 1-based number, to `body`: the lines are read on a
    /// ``SerialWorker``, the lines of a chunk at a time, so no task waits on the pipe.
    static func forEachLine(of handle: FileHandle, _ body: ([UInt8], Int) async throws -> Void) async throws {
        let worker = SerialWorker(label: "rmap.lines")
        let reader = Confined(LineReader(handle: handle))
        var number = 0
        while let lines = await worker.run({ reader.value.nextLines() }) {
            for line in lines {
                number += 1
                try await body(line, number)
            }
        }
    }
}
