/// Converts the attributes of a payload file's top-level records on the
/// thread that parses the file, ahead of ``RecordMapper``, which does the
/// rest (identity, nested records, the graph) on its own thread.
///
/// It keeps an ``EntityPlan`` of its own (``Confined``), since plans keep scratch
/// state: made before the parsing thread starts, it is used by that thread alone.
/// Transformers are `Sendable` and pure.
final class FieldPreparer: Sendable {
    private let plan: Confined<EntityPlan>

    /// A preparer for records of `type`; `nil` when a record's type key picks its entity,
    /// which the mapper decides.
    init?(type: EntityType, schema: GraphSchema, transformers: [String: any Transformer]) {
        guard type.mapping.typeKey == nil else { return nil }
        plan = Confined(EntityPlan(type: type, schema: schema, transformers: transformers))
    }

    /// The attributes of a top-level record (`nil` for a whole document or a value that is not an object).
    func fields(of item: JSONStreamItem) -> ConvertedFields? {
        guard !item.isWholeDocument, case .object(let wrapped) = item.value else { return nil }
        return RecordConverter.fields(of: RecordConverter.unwrapped(wrapped, element: plan.value.wrapper), plan.value)
    }
}
