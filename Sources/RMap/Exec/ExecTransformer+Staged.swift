extension ExecTransformer {
    /// Runs every exec transformer of the model over the run's staged occurrences
    /// (``StagedTransform``), one after the other, and takes the records whose answers were
    /// refused out of the stage.
    ///
    /// - Returns: the rejected records' errors and occurrences by entity.
    /// - Throws: ``ExecError`` when a program fails, prints fewer or more answers than values, or
    ///   a line that is not JSON; the engine's errors.
    static func runAll(on channel: StagingChannel, layout: StageLayout, model: MappingModel) async throws
        -> RequiredCheck.Rejections
    {
        var rejections = RequiredCheck.Rejections()
        for transformer in all(in: layout.schema) {
            let staged = try await channel.run { merge in
                StagedTransform(transformer: transformer, layout: layout, dialect: merge.engine.dialect)
            }
            // No value to transform (e.g. a run `--only` other entities): no program to start.
            guard try await channel.run({ try staged.items(after: 0, limit: 1, on: $0.engine) }).first != nil else {
                continue
            }
            let refused = try await transformer.run(staged, channel: channel, model: model)
            rejections.errors += refused.map(\.error)
            let counts = try await channel.run { merge in
                var counts: [Int: Int] = [:]
                try StageRejection(layout: layout, dialect: merge.engine.dialect)
                    .reject(Set(refused.map(\.top)), counts: &counts, on: merge.engine)
                return counts
            }
            rejections.counts.merge(counts, uniquingKeysWith: +)
        }
        return rejections
    }

    /// Sends every staged value to the program and stores its answers; returns the refused ones.
    private func run(_ staged: StagedTransform, channel: StagingChannel, model: MappingModel) async throws
        -> [(top: Int64, error: RecordError)]
    {
        let origin = model.redact(command.display)
        let (answers, missing, refused) = try await ExecProcess(command, origin: origin).exchange(
            origin: origin, redact: model.redact,
            feed: { process in
                var last: Int64 = 0
                while true {
                    let items = try channel.sync { try staged.items(after: last, limit: Self.batchSize, on: $0.engine) }
                    guard let final = items.last else { return }
                    last = final.seq
                    guard process.send(items.flatMap(staged.line)) else { return }
                }
            },
            answer: { lines in
                var pending: [StagedTransform.Item] = []
                var last: Int64 = 0
                var number = 0
                var refused: [(top: Int64, error: RecordError)] = []
                func next() throws -> StagedTransform.Item? {
                    if pending.isEmpty {
                        pending = try channel.sync {
                            try staged.items(after: last, limit: Self.batchSize, on: $0.engine)
                        }
                        .reversed()
                    }
                    guard let item = pending.popLast() else { return nil }
                    last = item.seq
                    return item
                }
                while let line = lines.next() {
                    number += 1
                    let lineOrigin = "\(origin) output line \(number)"
                    let answer = try ExecError.parse(line, origin: lineOrigin)
                    guard let item = try next() else {
                        throw ExecError(origin: lineOrigin, message: "an answer more than the values sent")
                    }
                    if let rejected = try channel.sync({
                        try staged.store(answer, for: item, line: number, origin: origin, on: $0.engine)
                    }) {
                        refused.append(rejected)
                    }
                }
                return (number, try next() != nil, refused)
            })
        if missing {
            throw ExecError(origin: origin, message: "printed \(answers) answer(s), fewer than the values sent")
        }
        return refused
    }
}
