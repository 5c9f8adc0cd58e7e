import Foundation

/// The `singer` source: runs a Singer tap and maps the records of its streams.
///
/// ```yaml
/// source:
///   plugin: singer
///   command: [tap-csv-folder]          # run directly, found on PATH or relative to the mapping file
///   config: { path: data, read_mode: one_stream_per_file }   # written to a private file: --config
///   catalog: catalog.json              # optional: --catalog (properties: --properties)
///   timeout: 3600                      # optional: seconds before the tap is stopped (default: none)
/// ```
///
/// `config:` is written as JSON to a file only this user can read (in a private
/// folder removed after the run) and passed with `--config`; `catalog:` and
/// `properties:` are passed as `--catalog`/`--properties`, resolved against the
/// mapping file. Streams go to entities as ``SingerStreams`` says; records flow
/// through map, connect and persist like any payload. A non-zero exit fails the
/// run (nothing is written) and shows the tap's stderr.
///
/// State: the last `STATE` the tap writes is stored (run-state scope `singer`,
/// key: the command's words joined by spaces, secrets shown as `***`) in the transaction that stores the
/// records, and passed back with `--state` on the next run; a run that fails
/// stores neither, so the next one resumes from the old state.
public struct SingerSource: Source {
    /// The option keys the plugin reads.
    public static let options = ["command", "env", "config", "catalog", "properties", "timeout"]

    private let config: PluginConfig
    private let command: ProgramCommand

    /// Creates the source from its `source:` block.
    ///
    /// - Throws: ``PluginError`` when `command:` is missing or empty.
    public init(config: PluginConfig) throws {
        self.config = config
        command = try ProgramCommand(config: config)
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        let origin = context.model.redact(command.words.joined(separator: " "))
        let files = try SingerFiles(origin: origin)
        defer { files.remove() }
        var arguments = command.words
        let settings = config["config"].map(\.json) ?? .object(JSONObject())
        arguments += ["--config", try files.write(settings, named: "config.json", origin: origin)]
        for option in ["catalog", "properties"] {
            if let path = config[option]?.scalar?.text { arguments += ["--\(option)", absolutePath(path)] }
        }
        let key = origin  // the words, secrets redacted: the run state keeps no secret
        if let state = try await context.runState.entries(scope: SingerReader.scope)[key]?.value {
            arguments += ["--state", try files.write(state, named: "state.json", origin: origin)]
        }
        var reader = SingerReader(origin: origin, entities: entities, inflector: context.model.inflector)
        try await command.run(arguments, origin: origin, redact: context.model.redact) { line, number in
            try await reader.deliver(line, number: number, to: context)
        }
        reader.finish(context.runState, key: key, entities: entities)
    }

    /// A path option as the tap (which runs in the mapping file's folder) can open it.
    private func absolutePath(_ path: String) -> String {
        let resolved = config.resolvePath(path)
        return resolved.hasPrefix("/") ? resolved : "\(FileManager.default.currentDirectoryPath)/\(resolved)"
    }
}
