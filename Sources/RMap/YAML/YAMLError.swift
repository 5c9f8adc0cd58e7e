/// A YAML file that could not be read or parsed.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is.
    public var mark: Mark
    /// libyaml's description of the problem (or ours, for aliases and merges).
    public var problem: String

    /// Creates an error.
    public init(mark: Mark, problem: String) {
        self.mark = mark
        self.problem = problem
    }

    /// `file:line:col: problem`.
    public var description: String { "\(mark): \(problem)" }
}
