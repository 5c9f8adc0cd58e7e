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
