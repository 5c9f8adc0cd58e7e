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

    /// The exit statuses as help pages list them.
    static let helpText = """
        EXIT STATUS:
          0  success
          1  the run failed; nothing was written
          2  usage or mapping error
          3  finished with rejected records or dangling references (without --strict)
        """
}
