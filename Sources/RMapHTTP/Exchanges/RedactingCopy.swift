import Foundation

/// Copies a file with every secret replaced by `***`, a piece at a time (memory stays flat
/// whatever the file's size): what a recording does with answer bodies.
enum RedactingCopy {
    /// Copies the file `source` to `destination` (replaced), hiding `secrets` (their UTF-8 bytes).
    ///
    /// - Throws: the file system's errors.
    static func copy(_ source: URL, to destination: URL, hiding secrets: [String]) throws {
        let reader = try FileHandle(forReadingFrom: source)
        defer { try? reader.close() }
        try copy(from: { try reader.read(upToCount: 1 << 16) ?? Data() }, to: destination, hiding: secrets)
    }

    /// Writes `data` to `destination` (replaced), hiding `secrets`.
    ///
    /// - Throws: the file system's errors.
    static func write(_ data: Data, to destination: URL, hiding secrets: [String]) throws {
        var rest = data[...]
        try copy(
            from: {
                defer { rest = rest.dropFirst(1 << 16) }
                return Data(rest.prefix(1 << 16))
            }, to: destination, hiding: secrets)
    }

    /// Copies what `read` returns (an empty piece at the end) to `destination`, hiding `secrets`.
    private static func copy(from read: () throws -> Data, to destination: URL, hiding secrets: [String]) throws {
        let patterns = Set(secrets.filter { !$0.isEmpty }.map { Array($0.utf8) }).sorted { $0.count > $1.count }
        let overlap = max(0, (patterns.first?.count ?? 1) - 1)
        let firstBytes = Set(patterns.compactMap(\.first))
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let writer = try FileHandle(forWritingTo: destination)
        defer { try? writer.close() }
        var pending: [UInt8] = []
        var finished = false
        while !finished {
            let chunk = try read()
            finished = chunk.isEmpty
            pending += chunk
            // Bytes that may start a secret cut by the chunk's end wait for the next chunk.
            let ready = finished ? pending.count : pending.count - overlap
            var output: [UInt8] = []
            output.reserveCapacity(max(0, ready))
            var index = 0
            while index < ready {
                if firstBytes.contains(pending[index]),
                    let match = patterns.first(where: { pending[index...].starts(with: $0) })
                {
                    output += Array("***".utf8)
                    index += match.count
                } else {
                    output.append(pending[index])
                    index += 1
                }
            }
            try writer.write(contentsOf: output)
            pending.removeFirst(min(index, pending.count))
        }
    }
}
