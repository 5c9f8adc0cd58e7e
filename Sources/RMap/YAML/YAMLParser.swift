import Foundation

/// Parses YAML text into a ``YAMLNode`` tree through libyaml's event API.
///
/// ```swift
/// let node = try YAMLParser.parse("rmap: 1\n", file: "crm.yml")
/// ```
///
/// Input is held to limits: one document per stream,
/// ``maxDepth`` levels of sequences and mappings, ``maxAliases`` aliases that
/// bring at most ``maxAliasedNodes`` nodes in all.
public enum YAMLParser {
    /// How deep sequences and mappings may nest: 512, as for JSON.
    public static let maxDepth = JSONReader.maxDepth
    /// How many aliases (`*name`) one stream may use.
    public static let maxAliases = 10_000
    /// How many nodes the aliases of one stream may bring in all, counting
    /// every node of each alias's anchored tree (with the aliases inside it).
    public static let maxAliasedNodes = 100_000

    /// Parses the document of `text`.
    ///
    /// - Parameters:
    ///   - text: the YAML source.
    ///   - file: the path named in marks and errors.
    /// - Returns: the document's root node, or `nil` for an empty stream.
    /// - Throws: ``YAMLError`` with libyaml's problem and its position, or for
    ///   a second document, nesting deeper than ``maxDepth`` or aliases past
    ///   ``maxAliases`` or ``maxAliasedNodes``.
    public static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode? {
        let events = EventReader(text: text, file: file)
        var builder = TreeBuilder(file: file)
        return try builder.document(from: events)
    }

    /// Reads and parses a file.
    ///
    /// - Throws: ``YAMLError`` when the file cannot be read (or is no regular file, such as a
    ///   device that never ends), is not UTF-8 or cannot be parsed.
    public static func parse(contentsOf path: String) throws(YAMLError) -> YAMLNode? {
        if let problem = RegularFile.problem(at: path) {
            throw YAMLError(mark: Mark(file: path, line: 1, column: 1), problem: "cannot read the file: it \(problem)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw YAMLError(mark: Mark(file: path, line: 1, column: 1), problem: "cannot read the file")
        }
        return try parse(text(of: data, file: path), file: path)
    }

    /// The text of a YAML file's bytes, which must be UTF-8.
    ///
    /// - Throws: ``YAMLError`` at the line and column (in bytes) of the first
    ///   byte that is not UTF-8: nothing is silently replaced.
    static func text(of data: Data, file: String) throws(YAMLError) -> String {
        let bytes = [UInt8](data)
        let invalid = bytes.withUnsafeBytes { raw in
            BytePosition.firstInvalidUTF8(in: raw).map { BytePosition(offset: $0, in: raw) }
        }
        guard let invalid else { return String(decoding: bytes, as: UTF8.self) }
        let mark = Mark(file: file, line: invalid.line, column: invalid.column)
        throw YAMLError(mark: mark, problem: "invalid UTF-8: a mapping file must be UTF-8 text")
    }
}
