/// A parsed YAML document: a `Sendable` value tree in which every node keeps
/// the mark where it starts.
///
/// Aliases are resolved (an alias node is a copy of its anchor's node) and
/// `<<` merge keys are applied, so consumers see plain scalars, sequences and
/// mappings.
public indirect enum YAMLNode: Sendable, Hashable {
    /// A scalar with its text, its style (a quoted `"1"` stays a string) and its mark.
    case scalar(YAMLScalar)
    /// A sequence of nodes.
    case sequence([YAMLNode], Mark)
    /// A mapping in document order.
    case mapping([YAMLPair], Mark)

    /// Where the node starts.
    public var mark: Mark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .sequence(_, let mark), .mapping(_, let mark): mark
        }
    }

    /// The scalar, when the node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The items, when the node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items, _) = self { return items }
        return nil
    }

    /// The pairs, when the node is a mapping.
    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs, _) = self { return pairs }
        return nil
    }

    /// The value under a plain string key, when the node is a mapping.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar?.text == key }?.value
    }

    /// A short word for the kind of node, for error messages.
    public var kindName: String {
        switch self {
        case .scalar(let scalar): scalar.isNull ? "null" : "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// One key-value pair of a YAML mapping.
public struct YAMLPair: Sendable, Hashable {
    /// The key node (usually a plain scalar).
    public var key: YAMLNode
    /// The value node.
    public var value: YAMLNode

    /// Creates a pair.
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A YAML scalar: its text, how it was written and where.
public struct YAMLScalar: Sendable, Hashable {
    /// How a scalar was written; only plain scalars are resolved to null, bool and numbers.
    public enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The scalar's text after YAML's escapes and folding.
    public var text: String
    /// How it was written.
    public var style: Style
    /// Where it starts.
    public var mark: Mark

    /// Creates a scalar.
    public init(text: String, style: Style, mark: Mark) {
        self.text = text
        self.style = style
        self.mark = mark
    }

    /// True for a plain `~`, `null`, `Null`, `NULL` or empty scalar (YAML 1.2 core schema).
    public var isNull: Bool {
        style == .plain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// The boolean a plain scalar resolves to (`true`/`false` in any common case).
    public var bool: Bool? {
        guard style == .plain else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The integer a plain scalar resolves to.
    public var int: Int? {
        style == .plain ? Int(text) : nil
    }

    /// The floating-point number a plain scalar resolves to (integers included).
    public var double: Double? {
        style == .plain ? Double(text) : nil
    }
}
