internal import RMapJSONC

// MARK: - Reading and parsing (on the prefetch thread)

extension JSONFileStream {
    /// Items handed over at a time; a group never spans two chunks, so a
    /// group holds at most one chunk's items. Small, because the items are
    /// allocated in the reading thread's malloc arena, which the consumer's
    /// allocations cannot reuse: 1,024 cost ~2 MiB more peak RSS in `rmap run`.
    static let groupSize = 128

    /// Reads and parses the file, putting its items, each with what `prepare` made of it, into `queue` in groups.
    ///
    /// The file, buffer and parser live in this call, so they are released
    /// when it returns or throws.
    ///
    /// - Throws: ``JSONError`` when the file cannot be read or is not valid JSON,
    ///   after putting the items before the error; ``PrefetchQueue/Closed`` once
    ///   the consumer has stopped.
    func parse<Prepared>(
        into queue: PrefetchQueue<(JSONStreamItem, Prepared?)>, prepare: (JSONStreamItem) -> Prepared
    ) throws {
        let file = try FileReader(path: path)
        let buffer = InputBuffer(capacity: chunkSize)
        let parser = try NativeJSONParser(origin: path)
        var atEnd = try file.fill(buffer)
        let bom = UTF8BOM.length(at: buffer.bytes)
        buffer.drop(bom)
        var stream = rmj_stream()
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") {
            stream.split = Int32(RMJ_SPLIT_LINES)
        } else {
            let first = try firstValueByte(file: file, buffer: buffer, atEnd: &atEnd)
            guard first == UInt8(ascii: "[") else {
                while !atEnd {
                    buffer.reserve(buffer.count + chunkSize)
                    atEnd = try file.fill(buffer)
                }
                let value = try parser.parseDocument(buffer, origin: path)
                let line = buffer.bytes.prefix { $0 != first }.count { $0 == 0x0A } + 1
                let item = JSONStreamItem(value: value, index: 0, isWholeDocument: true, line: line)
                try queue.put([(item, prepare(item))], cost: buffer.count)
                return
            }
            stream.split = Int32(RMJ_SPLIT_ARRAY)
        }
        var base = bom
        while true {
            let first = stream.count
            let batch = parser.parseBatch(buffer, stream: &stream, atEnd: atEnd, origin: path, base: base)
            var group: [(JSONStreamItem, Prepared?)] = []
            group.reserveCapacity(min(batch.items, Self.groupSize))
            // A group costs its share of the bytes the batch was parsed from.
            let bytesPerItem = batch.items == 0 ? 0 : batch.consumed / batch.items
            for position in 0..<batch.items {
                let item = JSONStreamItem(
                    value: parser.value(at: position), index: first + position, isWholeDocument: false,
                    line: parser.line(ofItem: position))
                group.append((item, queue.isAhead ? prepare(item) : nil))
                if group.count == Self.groupSize {
                    try queue.put(group, cost: group.count * bytesPerItem)
                    group.removeAll(keepingCapacity: true)
                }
            }
            try queue.put(group, cost: group.count * bytesPerItem)  // also where a stopped consumer is noticed
            if let error = batch.error { throw error }
            if atEnd { return }
            buffer.drop(batch.consumed)
            base += batch.consumed
            if buffer.free.count < max(chunkSize / 2, 1) { buffer.reserve(buffer.count + chunkSize) }
            atEnd = try file.fill(buffer)
        }
    }

    /// Reads until the first byte that is not whitespace, which decides how the file streams.
    private func firstValueByte(file: FileReader, buffer: InputBuffer, atEnd: inout Bool) throws(JSONError)
        -> UInt8?
    {
        while true {
            if let byte = buffer.bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return byte }
            if atEnd { return nil }
            buffer.reserve(buffer.count + chunkSize)
            atEnd = try file.fill(buffer)
        }
    }
}
