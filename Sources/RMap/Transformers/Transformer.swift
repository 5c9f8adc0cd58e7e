/// A value transformer plugin, named in an attribute's `transform:`.
///
/// Transformers run after a payload value is converted to the attribute's
/// type. Returning `nil` rejects the record (a record error naming the
/// transformer). They must be pure: the same input gives the same output.
public protocol Transformer: Sendable {
    /// The transformed value, or `nil` when the value cannot be transformed.
    func transform(_ value: Value) -> Value?
}

/// A transformer made from a closure.
public struct ClosureTransformer: Transformer {
    private let body: @Sendable (Value) -> Value?

    /// Creates a transformer from a closure.
    public init(_ body: @escaping @Sendable (Value) -> Value?) {
        self.body = body
    }

    public func transform(_ value: Value) -> Value? { body(value) }
}
