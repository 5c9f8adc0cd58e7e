import Foundation

/// The type of an attribute, as the mapping file names it.
public indirect enum AttributeType: Sendable, Hashable, CustomStringConvertible {
    case string, int, double, decimal, bool, date, datetime, url, uuid, json
    /// `[T]`: an array of a scalar type.
    case array(AttributeType)

    /// The scalar type names a mapping file may use.
    public static let scalarNames = [
        "string", "int", "double", "decimal", "bool", "date", "datetime", "url", "uuid", "json",
    ]

    /// Names other schema languages give the scalar types (SQL, JSON Schema, Ruby, Python),
    /// lower-cased, with the rmap type each stands for: what "did you mean" suggests for them.
    public static let synonyms = [
        "integer": "int", "long": "int", "bigint": "int", "smallint": "int", "int64": "int", "number": "double",
        "float": "double", "real": "double", "numeric": "decimal", "money": "decimal", "boolean": "bool",
        "str": "string", "text": "string", "varchar": "string", "char": "string", "timestamp": "datetime",
        "timestamptz": "datetime", "time": "datetime", "date_time": "datetime", "uri": "url", "guid": "uuid",
        "object": "json", "hash": "json", "dict": "json", "jsonb": "json",
    ]

    /// The type name closest to an unknown one: `int` for `integer`, `[int]` for `[integer]`.
    public static func suggestion(for name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
            return suggestion(for: String(trimmed.dropFirst().dropLast())).map { "[\($0)]" }
        }
        return Suggestion.closest(to: trimmed, in: scalarNames, synonyms: synonyms)
    }

    /// Parses `int`, `[int]` and the other names of ``scalarNames``.
    public init?(name: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
            guard let element = AttributeType(name: String(trimmed.dropFirst().dropLast())), !element.isArray
            else { return nil }
            self = .array(element)
            return
        }
        switch trimmed {
        case "string": self = .string
        case "int": self = .int
        case "double": self = .double
        case "decimal": self = .decimal
        case "bool": self = .bool
        case "date": self = .date
        case "datetime": self = .datetime
        case "url": self = .url
        case "uuid": self = .uuid
        case "json": self = .json
        default: return nil
        }
    }

    /// True for `[T]`.
    public var isArray: Bool {
        if case .array = self { return true }
        return false
    }

    /// The name as written in a mapping file.
    public var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .decimal: "decimal"
        case .bool: "bool"
        case .date: "date"
        case .datetime: "datetime"
        case .url: "url"
        case .uuid: "uuid"
        case .json: "json"
        case .array(let element): "[\(element)]"
        }
    }
}
