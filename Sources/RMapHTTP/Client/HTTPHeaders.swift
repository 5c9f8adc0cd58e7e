/// HTTP header fields in order, looked up without regard to case.
///
/// ```swift
/// var headers = HTTPHeaders(["Accept": "application/json"])
/// headers["accept"]                  // "application/json"
/// headers["X-Trace"] = "1"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    /// The fields in the order they were set.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from fields in order.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary (in name order, for stable requests).
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The value of the first field named `name` (any case); setting replaces
    /// every field of that name, and `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            let key = name.lowercased()
            return fields.first { $0.name.lowercased() == key }?.value
        }
        set {
            let key = name.lowercased()
            let index = fields.firstIndex { $0.name.lowercased() == key }
            fields.removeAll { $0.name.lowercased() == key }
            guard let newValue else { return }
            fields.insert((name, newValue), at: Swift.min(index ?? fields.count, fields.count))
        }
    }

    /// True when `text` holds a carriage return, a line feed or a NUL: in a field's name or
    /// value it would end the field and start another (header injection), so no such field is
    /// sent; Python's requests refuses them too.
    public static func breaksLine(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// The name of the first field whose name or value ``breaksLine(_:)``, if any.
    public var fieldBreakingLine: String? {
        fields.first { Self.breaksLine($0.name) || Self.breaksLine($0.value) }?.name
    }

    /// `other`'s fields set over these (a field in `other` replaces one of the same name).
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        other.fields.reduce(into: self) { $0[$1.name] = $1.value }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
