/// Reads, from a record that does not say its entity, the values it gives to attributes only its
/// entity's sub-entities have: its object may be one, which only the store knows
/// (``PendingRecord/subEntityValues``).
struct SubEntityReader {
    private let schema: GraphSchema
    private let plans: [EntityPlan]
    /// The plans of each entity's sub-entities, by entity index, as ``values(in:of:)`` asks.
    private var subPlans: [Int: [EntityPlan]] = [:]

    init(schema: GraphSchema, plans: [EntityPlan]) {
        self.schema = schema
        self.plans = plans
    }

    /// The values `object` gives to the attributes of `plan`'s sub-entities that `plan` lacks;
    /// a value that cannot become its type is left out, as an unmapped key (the object may be no
    /// such sub-entity).
    mutating func values(in object: JSONObject, of plan: EntityPlan) -> [(type: Int, attribute: Int, value: Value)] {
        let model = schema.model
        let subs =
            subPlans[plan.type.index]
            ?? plans.filter { $0 !== plan && model.entity($0.type.mapping, isKindOf: plan.type.name) }
        subPlans[plan.type.index] = subs
        guard !subs.isEmpty else { return [] }
        var names = Set(plan.attributes.map(\.name))
        var found: [(type: Int, attribute: Int, value: Value)] = []
        for sub in subs {
            let fields = RecordFields.read(object, sub)
            for attribute in sub.attributes where !names.contains(attribute.name) {
                guard let value = fields.values[attribute.position] else { continue }
                names.insert(attribute.name)
                found.append((sub.type.index, attribute.position, value))
            }
            sub.returnValues(fields.values)
        }
        return found
    }
}
