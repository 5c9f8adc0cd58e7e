/// A transformer that rewrites text: string values, and the strings inside
/// array values; every other value passes through unchanged.
///
/// ```swift
/// let shout = StringTransformer { .string($0.uppercased()) }
/// shout.transform(.array([.string("a"), .int(1)]))   // ["A", 1]
/// ```
public struct StringTransformer: Transformer {
    private let body: @Sendable (String) -> Value

    /// Creates a transformer from what it makes of one string.
    public init(_ body: @escaping @Sendable (String) -> Value) {
        self.body = body
    }

    /// The value with its strings rewritten (never `nil`).
    public func transform(_ value: Value) -> Value? {
        switch value {
        case .string(let text): body(text)
        case .array(let items):
            .array(items.map { item in if case .string(let text) = item { body(text) } else { item } })
        default: value
        }
    }
}
