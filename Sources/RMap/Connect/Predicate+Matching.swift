extension Predicate {
    /// True when a record's values (one per attribute of `type`, `nil` where missing) meet every clause.
    ///
    /// A missing value counts as null. Conditions compare scalars: an array
    /// or JSON value meets only `null: false` and `ne`.
    func matches(_ values: [Value?], of type: EntityType) -> Bool {
        clauses.allSatisfy { clause in
            clause.condition.holds(for: type.attributeIndex(clause.attribute).flatMap { values[$0] } ?? .null)
        }
    }
}

extension Predicate.Condition {
    /// True when `value` meets the condition; equality is ``MatchKey``'s (numbers by value).
    func holds(for value: Value) -> Bool {
        if case .null(let wanted) = self { return value.isNull == wanted }
        guard let key = MatchKey(value) else { return false }
        switch self {
        case .eq(let operand): return key == MatchKey(operand)
        case .ne(let operand): return key != MatchKey(operand)
        case .in(let operands): return operands.contains { MatchKey($0) == key }
        case .lt(let operand): return ValueOrdering.compare(value, operand) == .orderedAscending
        case .le(let operand): return [.orderedAscending, .orderedSame].contains(ValueOrdering.compare(value, operand))
        case .gt(let operand): return ValueOrdering.compare(value, operand) == .orderedDescending
        case .ge(let operand):
            return [.orderedDescending, .orderedSame].contains(ValueOrdering.compare(value, operand))
        case .null: return false
        }
    }
}
