/// The `exec` transformer (`transform: { exec: [python3, upcase.py] }`): one
/// program per run and attribute transforms every value of that attribute.
///
/// Once every payload is mapped (before connect), rmap writes each object's
/// value (after the named transformers; `null` and absent values are left
/// out) to the program's standard input, one JSON value a line, and reads
/// one JSON value a line back, in the same order, while it writes. An answer
/// goes through the attribute's type rules as a payload value does; one that
/// does not fit is a record error naming the program and the output line, and
/// the object is rejected (removed from the graph). Fewer or more answers than
/// values, a line that is not JSON, or a non-zero exit fail the run.
///
/// ```
/// stdin:  "ada lovelace"      stdout: "ADA LOVELACE"
///         "grace hopper"              "GRACE HOPPER"
/// ```
public struct ExecTransformer: Sendable {
    /// The keys of a `transform:` item that runs a program.
    public static let options = ["exec", "env", "timeout"]

    /// How many values are written to the program at a time (between two takes of the graph's lock).
    static let batchSize = 512

    /// The program.
    public let command: ExecCommand
    /// The attribute's name.
    public let attribute: String
    /// The root entity whose table holds the objects.
    let root: Int
    /// The family members whose attribute runs this program.
    let types: Set<Int>

    /// The exec transformers of a schema: one per root entity, attribute and program.
    static func all(in schema: GraphSchema) -> [ExecTransformer] {
        var found: [ExecTransformer] = []
        for type in schema.types {
            for attribute in type.mapping.attributes {
                guard let command = attribute.execTransform else { continue }
                if let index = found.firstIndex(where: {
                    $0.root == type.rootIndex && $0.attribute == attribute.name && $0.command == command
                }) {
                    found[index] = ExecTransformer(
                        command: command, attribute: attribute.name, root: type.rootIndex,
                        types: found[index].types.union([type.index]))
                } else {
                    found.append(
                        ExecTransformer(
                            command: command, attribute: attribute.name, root: type.rootIndex, types: [type.index]))
                }
            }
        }
        return found
    }

    /// Runs every exec transformer of the graph's schema, one after the other.
    static func runAll(
        on graph: ObjectGraph, model: MappingModel, reject: @escaping @Sendable (RecordError) -> Void
    ) async throws {
        let shared = LockedGraph(graph)
        for transformer in all(in: graph.schema) {
            // No value to transform (e.g. a run `--only` other entities): no program to start.
            var walk = Walk(transformer: transformer)
            guard !walk.next(1, in: graph).isEmpty else { continue }
            try await transformer.run(on: shared, model: model, reject: reject)
        }
    }

    /// Sends every value to the program and stores its answers.
    func run(
        on shared: LockedGraph, model: MappingModel, reject: @escaping @Sendable (RecordError) -> Void
    ) async throws {
        let origin = model.redact(command.display)
        let (answers, missing) = try await ExecProcess(command, origin: origin).exchange(
            origin: origin, redact: model.redact,
            feed: { process in
                var walk = Walk(transformer: self)
                while true {
                    let bytes = shared.withGraph { graph in
                        walk.next(Self.batchSize, in: graph).reduce(into: [UInt8]()) { bytes, item in
                            bytes +=
                                JSONWriter.serialize(ValueConverter.json(from: item.value, format: item.format)).utf8
                            bytes.append(0x0A)
                        }
                    }
                    guard !bytes.isEmpty, process.send(bytes) else { return }
                }
            },
            answer: { lines in
                var walk = Walk(transformer: self)
                var number = 0
                while let line = lines.next() {
                    number += 1
                    let lineOrigin = "\(origin) output line \(number)"
                    let answer = try ExecError.parse(line, origin: lineOrigin)
                    let rejected = try shared.withGraph { graph throws(ExecError) -> RecordError? in
                        guard let item = walk.next(1, in: graph).first else {
                            throw ExecError(origin: lineOrigin, message: "an answer more than the values sent")
                        }
                        return store(answer, for: item, line: number, origin: origin, in: graph)
                    }
                    if let rejected { reject(rejected) }
                }
                return (number, !shared.withGraph { walk.next(1, in: $0) }.isEmpty)
            })
        if missing {
            throw ExecError(origin: origin, message: "printed \(answers) answer(s), fewer than the values sent")
        }
    }

    /// Sets the answer as the object's value (that one value: the row is not rewritten; an
    /// identity attribute's new value is the object's identity in the graph at once). A value that
    /// does not fit, or an identity another object of the family has, rejects the object.
    private func store(
        _ answer: JSONValue, for item: Walk.Item, line: Int, origin: String, in graph: ObjectGraph
    ) -> RecordError? {
        let attribute = item.object.type.mapping.attributes[item.position]
        let message: String
        switch AttributePlan.typed(
            answer, shown: answer, as: attribute.type, format: attribute.format,
            checksShape: TextShape.isChecked(attribute.type))
        {
        case .success(let value):
            do throws(GraphError) {
                try item.object.set(value, at: item.position)
                return nil
            } catch {
                message = error.description
            }
        case .failure(let failure):
            message = failure.message
        }
        let error = RecordError(
            entity: item.object.type.name, identity: ExecStageCodec.describe(item.object),
            attribute: attribute.name, value: ValueText.display(answer), origin: origin, index: line - 1,
            message: "\(message) (output line \(line))")
        graph.remove(item.object)
        return error
    }

    /// The objects whose values go to the program, in row order: the feeding thread and the
    /// answering thread each walk them, the second behind the first, so no list of them is kept.
    struct Walk {
        struct Item {
            var object: GraphObject
            var position: Int
            var value: Value
            var format: TimeFormat?
        }

        let transformer: ExecTransformer
        private var row = 0

        init(transformer: ExecTransformer) {
            self.transformer = transformer
        }

        /// The next items (at most `limit`).
        mutating func next(_ limit: Int, in graph: ObjectGraph) -> [Item] {
            let table = graph.table(transformer.root)
            var items: [Item] = []
            while items.count < limit, row < table.rowCount {
                defer { row += 1 }
                guard !table.removed.contains(row) else { continue }
                let object = GraphObject(graph: graph, root: transformer.root, row: row)
                let type = object.type
                guard transformer.types.contains(type.index), let position = type.attributeIndex(transformer.attribute),
                    let value = object.value(at: position), !value.isNull
                else { continue }
                items.append(
                    Item(
                        object: object, position: position, value: value,
                        format: type.mapping.attributes[position].format))
            }
            return items
        }
    }
}
