import Foundation

/// Parses YAML text into a ``YAMLNode`` tree through libyaml's event API.
///
/// ```swift
/// let node = try YAMLParser.parse("rmap: 1\n", file: "crm.yml")
/// ```
public enum YAMLParser {
    /// Parses the first document of `text`.
    ///
    /// - Parameters:
    ///   - text: the YAML source.
    ///   - file: the path named in marks and errors.
    /// - Returns: the document's root node, or `nil` for an empty stream.
    /// - Throws: ``YAMLError`` with libyaml's problem and its position.
    public static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode? {
        let events = EventReader(text: text, file: file)
        var builder = TreeBuilder(file: file)
        return try builder.document(from: events)
    }

    /// Reads and parses a file.
    ///
    /// - Throws: ``YAMLError`` when the file cannot be read or parsed.
    public static func parse(contentsOf path: String) throws(YAMLError) -> YAMLNode? {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw YAMLError(mark: Mark(file: path, line: 1, column: 1), problem: "cannot read the file")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }
}
