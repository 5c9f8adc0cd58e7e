/// Decodes a predicate: attribute -> condition, each condition a plain value (equal), a list
/// (one of) or one operator, its operands read as the attribute's type. Connections' `when` and
/// `where` and an entity's `delete_when` are predicates.
struct PredicateDecoder {
    let diagnostics: Diagnostics

    /// The operators of a condition written as a mapping.
    static let conditionKeys = ["eq", "ne", "lt", "le", "gt", "ge", "in", "null"]

    /// The predicate `node` on `entity`'s attributes; a clause that cannot be read is reported and left out.
    func predicate(_ node: YAMLNode, on entity: EntityMapping, what: String) -> Predicate {
        var clauses: [Predicate.Clause] = []
        for pair in diagnostics.uniquePairs(node, what) ?? [] {
            guard let name = pair.key.scalar?.text else { continue }
            guard let attribute = entity.attribute(named: name) else {
                diagnostics.checkAttribute(name, on: entity, in: what, at: pair.key.mark)
                continue
            }
            if let condition = condition(pair.value, attribute: attribute) {
                clauses.append(Predicate.Clause(attribute: name, condition: condition, mark: pair.key.mark))
            }
        }
        return Predicate(clauses: clauses)
    }

    private func condition(_ node: YAMLNode, attribute: AttributeMapping) -> Predicate.Condition? {
        let type: AttributeType = if case .array(let element) = attribute.type { element } else { attribute.type }
        let what = "the condition on '\(attribute.name)'"
        switch node {
        case .scalar:
            return operand(node, type, what).map(Predicate.Condition.eq)
        case .sequence(let items, _):
            let values = items.compactMap { operand($0, type, what) }
            return values.count == items.count ? .in(values) : nil
        case .mapping:
            let pairs = diagnostics.keyedPairs(node, what, allowed: Self.conditionKeys) ?? []
            guard pairs.count == 1, let (op, value) = pairs.first else {
                diagnostics.error(
                    node.mark, "\(what) takes one operator of \(Self.conditionKeys.joined(separator: ", "))")
                return nil
            }
            switch op {
            case "null": return diagnostics.bool(value, "'null'").map(Predicate.Condition.null)
            case "in":
                let items = value.sequence ?? [value]
                let values = items.compactMap { operand($0, type, what) }
                return values.count == items.count ? .in(values) : nil
            default:
                guard let operand = operand(value, type, what) else { return nil }
                switch op {
                case "eq": return .eq(operand)
                case "ne": return .ne(operand)
                case "lt": return .lt(operand)
                case "le": return .le(operand)
                case "gt": return .gt(operand)
                default: return .ge(operand)
                }
            }
        }
    }

    private func operand(_ node: YAMLNode, _ type: AttributeType, _ what: String) -> Value? {
        TypedScalar.value(node, as: type, format: nil, diagnostics: diagnostics, what: what)
    }
}
