import Foundation

/// The `file` source: JSON (`.json`) and JSON Lines (`.jsonl`) files named by
/// `path:`, a file, a directory or a glob, where `{collection}` and
/// `{element}` expand per entity. Paths are relative to the mapping file.
///
/// Files are streamed: the mapper reads a top-level array or a JSON Lines
/// file record by record. With `skip_unchanged: true`, a file whose bytes are those
/// of the last run is not read again (``RememberedPayloads``): its objects count as unchanged.
public struct FileSource: Source {
    /// The option keys the plugin reads.
    public static let options = ["path", "skip_unchanged"]

    private let config: PluginConfig

    /// Creates the source from its `source:` block.
    public init(config: PluginConfig) {
        self.config = config
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        let work = try entities.map { entity in
            (entity, try files(for: entity).map { (path: $0, size: Self.size(of: $0)) })
        }
        for (entity, files) in work {
            context.progress(.expected(entity: entity.name, amount: files.reduce(0) { $0 + $1.size }, unit: .bytes))
        }
        for (entity, files) in work {
            for (path, size) in files {
                if let payloads = context.payloads, config.skipsUnchanged {
                    try await payloads.deliverFile(atPath: path, entity: entity.name)
                } else {
                    try await context.deliver(Payload(origin: path, entity: entity.name, body: .file(path: path)))
                }
                context.progress(.fetched(entity: entity.name, origin: path))
                context.progress(.advanced(entity: entity.name, amount: size, unit: .bytes))
            }
        }
    }

    /// A file's size in bytes (0 when it cannot be read: reading it will say why).
    private static func size(of path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The files an entity's records come from, in name order.
    ///
    /// - Throws: ``FetchError`` when there are none, or one is not a regular file (`/dev/zero`
    ///   would be read for ever, a pipe is a stream: the `stdin` and `exec` sources read those).
    func files(for entity: EntityMapping) throws -> [String] {
        let files = try candidates(for: entity)
        for path in files {
            guard let problem = RegularFile.problem(at: path) else { continue }
            throw FetchError(
                origin: path,
                message: "\(problem) (entity \(entity.name)): the file source reads regular files only; "
                    + "a stream goes through the stdin or exec source")
        }
        return files
    }

    /// The paths `path:` names for an entity, in name order.
    private func candidates(for entity: EntityMapping) throws -> [String] {
        let template = config["path"]?.scalar?.text ?? "{collection}.json"
        let expanded = template.replacingOccurrences(of: "{collection}", with: entity.collection)
            .replacingOccurrences(of: "{element}", with: entity.element)
        let path = config.resolvePath(expanded)
        if expanded.contains(where: { "*?[".contains($0) }) {
            let matches = Glob.paths(matching: path)
            guard !matches.isEmpty else {
                throw FetchError(origin: path, message: "no file matches the pattern (entity \(entity.name))")
            }
            return matches
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FetchError(origin: path, message: "no such file (entity \(entity.name))")
        }
        guard isDirectory.boolValue else { return [path] }
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
        return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }.sorted().map { "\(path)/\($0)" }
    }
}

/// Shell-style pattern matching of paths, through the C library's `glob`.
enum Glob {
    static func paths(matching pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }.sorted()
    }
}
