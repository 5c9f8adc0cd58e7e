import Foundation

/// A temporary copy of the repository's example (`mappings/` over `samples/`),
/// for CLI tests that run it from the folder a user would.
enum ExampleWorkspace {
    /// A new directory holding `mappings/` and `samples/`.
    static func make() throws -> RunWorkspace {
        let workspace = try RunWorkspace()
        for folder in ["mappings", "samples"] {
            try FileManager.default.copyItem(
                at: TestServers.repositoryRoot.appendingPathComponent(folder),
                to: workspace.url.appendingPathComponent(folder))
        }
        return workspace
    }

    /// The files of the directory, recursively, sorted.
    static func files(_ workspace: RunWorkspace) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: workspace.url.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }
}
