/// A position in a source file: the file's path and a 1-based line and column.
///
/// Every YAML node keeps the mark where it starts, so that an error found much
/// later (an unknown entity, a connection cycle) can point back to the text.
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the file as it was given (relative paths stay relative).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a mark.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals link to.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: Mark, rhs: Mark) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
