/// The JSON lines of the `exec` stage: an object written as
/// `{"entity": ..., "identity": [...], "values": {...}}`, and such a line read
/// back and applied to the graph.
struct ExecStageCodec: Sendable {
    /// The program, as messages name it.
    let origin: String

    /// A line the program printed: the object it names and the values it sets, still JSON.
    struct Answer {
        var entity: String
        var identity: [JSONValue]
        var values: JSONObject
        var number: Int
    }

    /// Appends `object`'s line: the values its payloads carried, written in their attributes' formats.
    func write(_ object: StagedObject, model: MappingModel, into bytes: inout [UInt8]) {
        guard let type = model.entity(named: object.entity) else { return }
        var values: [(String, JSONValue)] = []
        for attribute in type.attributes {
            guard let value = object.values[attribute.name] else { continue }
            values.append((attribute.name, ValueConverter.json(from: value, format: attribute.format)))
        }
        let line = JSONValue.object(
            JSONObject([
                ("entity", .string(object.entity)),
                ("identity", .array(object.identity.map { ValueConverter.json(from: $0) })),
                ("values", .object(JSONObject(values))),
            ]))
        bytes += JSONWriter.serialize(line).utf8
        bytes.append(0x0A)
    }

    /// The answer on output line `number`; `nil` for a blank line.
    ///
    /// - Throws: ``ExecError`` when the line is not JSON of the answer's shape.
    func read(_ line: [UInt8], number: Int) throws(ExecError) -> Answer? {
        guard !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) else { return nil }
        let origin = "\(self.origin) output line \(number)"
        let value = try ExecError.parse(line, origin: origin)
        guard let object = value.object, let entity = object["entity"]?.string,
            case .array(let identity)? = object["identity"], case .object(let values)? = object["values"]
        else {
            throw ExecError(
                origin: origin,
                message:
                    "expected {\"entity\": \"...\", \"identity\": [...], \"values\": {...}}, found \(ValueText.display(value))"
            )
        }
        return Answer(entity: entity, identity: identity, values: values, number: number)
    }

    /// Sets the answer's values on the run's object it names (an identity value, which cannot
    /// change, keeps the object's identity), staged as a payload's values would be.
    ///
    /// - Returns: the record error of a value that does not fit its attribute (nothing is then set).
    /// - Throws: ``ExecError`` for an unknown entity, identity or attribute, or a changed identity.
    func apply(_ answer: Answer, reader: StagedReader) throws -> RecordError? {
        let origin = "\(self.origin) output line \(answer.number)"
        guard let type = reader.layout.schema.type(named: answer.entity) else {
            throw ExecError(origin: origin, message: "unknown entity '\(answer.entity)'")
        }
        let attributes = type.mapping.attributes
        let identityTypes = type.identityIndices.map { attributes[$0] }
        let identity = zip(answer.identity, identityTypes).compactMap { json, attribute in
            ValueConverter.value(from: json, as: attribute.type, format: attribute.format)
        }
        guard identity.count == identityTypes.count, answer.identity.count == identityTypes.count,
            var object = try reader.staged(of: type, identity: identity)
        else {
            throw ExecError(
                origin: origin,
                message: "no \(type.name) with identity \(ValueText.display(.array(answer.identity))) in the graph")
        }
        for (name, json) in answer.values.members {
            guard let position = type.attributeIndex(name) else {
                throw ExecError(origin: origin, message: "\(type.name) has no attribute '\(name)'")
            }
            let attribute = attributes[position]
            switch AttributePlan.typed(
                json, shown: json, as: attribute.type, format: attribute.format,
                checksShape: TextShape.isChecked(attribute.type))
            {
            case .failure(let failure):
                return RecordError(
                    entity: object.entity, identity: Self.describe(object, type: type), attribute: name,
                    value: ValueText.display(json), origin: self.origin, index: answer.number - 1,
                    message: "\(failure.message) (output line \(answer.number))")
            case .success(let value):
                do { try object.set(name, to: value) } catch {
                    throw ExecError(origin: origin, message: "the identity attribute '\(name)' cannot change")
                }
            }
        }
        try reader.stage([object])
        return nil
    }

    /// `id=1`: the object's identity as a record error shows it.
    static func describe(_ object: StagedObject, type: EntityType) -> String {
        zip(type.mapping.identity, object.identity).map { "\($0)=\(ValueText.display($1))" }.joined(separator: ", ")
    }
}
