/// The exit status of `rmap` (MAPPING.md §7).
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// The run failed; nothing was written.
    case failure = 1
    /// A usage or mapping error.
    case usage = 2
    /// Finished with rejected records or dangling references (without `--strict`).
    case rejected = 3

    /// An `EXIT STATUS:` section for a command's help: each status it can return, with what it means there.
    ///
    /// ```text
    /// EXIT STATUS:
    ///   0  the plan was printed
    ///   2  usage or mapping error
    /// ```
    static func helpText(_ meanings: [(status: ExitCode, meaning: String)]) -> String {
        (["EXIT STATUS:"] + meanings.map { "  \($0.status.rawValue)  \($0.meaning)" }).joined(separator: "\n")
    }

    /// The meaning of status 2, the same for every command.
    static let usageMeaning = "usage or mapping error"
}
