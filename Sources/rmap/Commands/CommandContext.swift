import RMap

/// What every command uses: the output streams and the plugin registry.
struct CommandContext: Sendable {
    /// Results.
    var output = TextOutput.standardOutput
    /// Progress and diagnostics.
    var errors = TextOutput.standardError
    /// The plugins mapping files may name.
    var registry: PluginRegistry

    /// Loads the mapping files; on mapping errors prints each issue to stderr
    /// (`file:line:col: message`), hands the error to `invalid` and returns `nil`.
    func loadModel(_ paths: [String], invalid: (MappingError) -> Void = { _ in }) -> MappingModel? {
        do {
            return try MappingLoader(catalog: registry.catalog).load(paths)
        } catch {
            for issue in error.issues { errors.line(issue.description) }
            invalid(error)
            return nil
        }
    }

    /// Prints `Error: message` to stderr and returns `status`.
    func fail(_ message: String, status: ExitCode = .failure) -> ExitCode {
        errors.line("Error: \(message)")
        return status
    }

    /// The store a run writes to: `--store`, else the files' `store:`, else SQLite's default file.
    func store(_ option: PluginConfig?, model: MappingModel) -> PluginConfig {
        option ?? model.store ?? .defaultStore
    }
}
