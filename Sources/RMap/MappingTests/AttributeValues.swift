/// The values a test file writes for an entity's attributes, each read as its attribute's type.
struct AttributeValues {
    let entity: EntityMapping

    /// The identity attributes' values that `object` writes.
    func identity(of object: ExpectedObject) throws(MappingTestFailure) -> [Value] {
        var values: [Value] = []
        for name in entity.identity {
            guard let node = object.values.first(where: { $0.name == name })?.node else {
                throw .missingIdentity(entity: entity.name, attribute: name, at: object.mark)
            }
            values.append(try value(of: node, for: name))
        }
        return values
    }

    /// The value `node` stands for as attribute `name` reads it.
    func value(of node: YAMLNode, for name: String) throws(MappingTestFailure) -> Value {
        guard let attribute = entity.attributes.first(where: { $0.name == name }) else {
            throw .unknownName(entity: entity.name, name: name, at: node.mark)
        }
        guard
            let value = ValueConverter.value(from: node.json, as: attribute.type, format: attribute.format)
        else {
            throw .unreadableValue(
                entity: entity.name, attribute: name, value: ValueText.display(node.json),
                type: attribute.type.description, at: node.mark)
        }
        return value
    }
}
