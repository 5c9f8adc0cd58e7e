import Foundation

/// Loads mapping files into one validated ``MappingModel``.
///
/// Every problem in every file is collected and thrown together, sorted by
/// position, each as `file:line:col: message`.
///
/// ```swift
/// let loader = MappingLoader(catalog: registry.catalog)
/// let model = try loader.load(["mappings/crm.yml", "mappings/tasks.yml"])
/// ```
public struct MappingLoader: Sendable {
    /// The variables `${VAR}` reads.
    public var environment: [String: String]
    /// The plugin and transformer names the files may use.
    public var catalog: PluginCatalog

    /// Creates a loader; `environment` defaults to the process environment.
    public init(
        environment: [String: String]? = nil, catalog: PluginCatalog = PluginCatalog()
    ) {
        self.environment = environment ?? ProcessInfo.processInfo.environment
        self.catalog = catalog
    }

    /// Reads and loads mapping files.
    ///
    /// Marks name each file by its path normalised as ``DisplayPath`` does
    /// (`./mappings/crm.yml` is `mappings/crm.yml`).
    ///
    /// - Throws: ``MappingError`` with every problem found, including each file
    ///   that cannot be read and why (`cannot read the mapping file: no such file`).
    public func load(_ paths: [String]) throws(MappingError) -> MappingModel {
        var documents: [(path: String, text: String)] = []
        var issues: [MappingIssue] = []
        for path in paths.map({ DisplayPath.normalize($0) }) {
            // A device such as /dev/zero is never read: it would fill memory.
            if RegularFile.problem(at: path) == nil, let data = FileManager.default.contents(atPath: path) {
                do {
                    documents.append((path, try YAMLParser.text(of: data, file: path)))
                } catch {
                    issues.append(MappingIssue(mark: error.mark, message: error.problem))
                }
            } else {
                issues.append(
                    MappingIssue(
                        mark: Mark(file: path, line: 1, column: 1),
                        message: "cannot read the mapping file: \(UnreadableFile.reason(path))"))
            }
        }
        guard issues.isEmpty else { throw MappingError(issues: issues) }
        return try load(documents: documents)
    }

    /// Loads mapping files from text already read.
    ///
    /// - Parameter documents: each file's path (as marks will name it) and text.
    /// - Throws: ``MappingError`` with every problem found.
    public func load(documents: [(path: String, text: String)]) throws(MappingError) -> MappingModel {
        let diagnostics = Diagnostics(interpolator: Interpolator(environment: environment))
        let files = FileDecoder(diagnostics: diagnostics, catalog: catalog)
        var inflections = Inflections.english
        var settings: [FileSettings] = []
        for document in documents {
            do {
                guard let root = try YAMLParser.parse(document.text, file: document.path) else {
                    diagnostics.error(Mark(file: document.path, line: 1, column: 1), "the mapping file is empty")
                    continue
                }
                settings.append(files.decode(root, path: document.path, inflections: &inflections))
            } catch {
                diagnostics.error(error.mark, error.problem)
            }
        }
        let inflector = Inflector(inflections)
        let model = ModelBuilder(diagnostics: diagnostics, files: files, inflector: inflector).build(settings)
        guard diagnostics.issues.isEmpty else { throw MappingError(issues: diagnostics.issues) }
        var loaded = MappingModel(
            entities: model, store: settings.lazy.compactMap(\.store).first, inflector: inflector,
            files: documents.map(\.path), secrets: diagnostics.interpolator.secrets)
        loaded.stages = settings.flatMap(\.stages)
        loaded.loadedFrom = MappingFingerprint.of(documents: documents, variables: diagnostics.interpolator.read)
        return loaded
    }
}
