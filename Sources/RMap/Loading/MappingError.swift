/// One problem found in the mapping files, at a mark.
public struct MappingIssue: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Where the problem is.
    public var mark: Mark
    /// What is wrong, as a sentence a person can act on.
    public var message: String

    /// Creates an issue.
    public init(mark: Mark, message: String) {
        self.mark = mark
        self.message = message
    }

    /// `file:line:col: message`.
    public var description: String { "\(mark): \(message)" }

    public static func < (lhs: MappingIssue, rhs: MappingIssue) -> Bool {
        (lhs.mark, lhs.message) < (rhs.mark, rhs.message)
    }
}

/// Every problem found while loading mapping files, sorted by position.
public struct MappingError: Error, Sendable, CustomStringConvertible {
    /// The problems, sorted by file, line and column.
    public var issues: [MappingIssue]

    /// Creates an error from issues (sorted here).
    public init(issues: [MappingIssue]) {
        self.issues = issues.sorted()
    }

    /// One issue a line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
