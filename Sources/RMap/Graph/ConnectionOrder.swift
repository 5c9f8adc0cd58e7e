/// Orders a schema's connections so that a key path through a relationship
/// is resolved after that relationship is filled.
///
/// A relationship named `X` on entity `C` is filled by the connections of `X`
/// on `C` and on every entity extending it, and by the connections whose
/// inverse is `X` and whose destination shares `C`'s table. Foreign-key
/// connections depend on nothing and keep the model's order. The loader
/// rejects cycles; an edge that would close one is ignored here.
enum ConnectionOrder {
    /// Every connection step of the schema, dependencies first.
    static func steps(of schema: GraphSchema) -> [ConnectionStep] {
        var steps: [ConnectionStep] = []
        for type in schema.types {
            for position in type.mapping.relationships.indices {
                if let step = ConnectionStep(source: type, position: position, schema: schema) { steps.append(step) }
            }
        }
        let dependencies = steps.map { step in
            step.pathRelationships(schema: schema).flatMap { entity, name in
                steps.indices.filter { fills(steps[$0], relationship: name, of: entity, schema: schema) }
            }
        }
        var state = Array(repeating: VisitState.new, count: steps.count)
        var order: [Int] = []
        for index in steps.indices {
            visit(index, dependencies: dependencies, state: &state, order: &order)
        }
        return order.map { steps[$0] }
    }

    private enum VisitState {
        case new, visiting, done
    }

    private static func visit(_ index: Int, dependencies: [[Int]], state: inout [VisitState], order: inout [Int]) {
        guard state[index] == .new else { return }
        state[index] = .visiting
        for dependency in dependencies[index] {
            visit(dependency, dependencies: dependencies, state: &state, order: &order)
        }
        state[index] = .done
        order.append(index)
    }

    /// True when `step` fills relationship `name` for objects of `entity`'s family.
    private static func fills(
        _ step: ConnectionStep, relationship name: String, of entity: EntityType, schema: GraphSchema
    )
        -> Bool
    {
        if step.relationship.name == name, schema.family(of: entity).contains(where: { $0 === step.source }) {
            return true
        }
        return step.relationship.inverse == name && step.destination.rootIndex == entity.rootIndex
    }
}
