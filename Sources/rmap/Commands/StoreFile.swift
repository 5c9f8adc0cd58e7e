import Foundation
import RMap

/// The file of a `sqlite` or `json` store: `rmap run` creates it, `diff`, `status` and `push` read it.
///
/// A run writes the file when it commits, so an empty file holds no store: one that a run created
/// and then failed before committing is removed (with SQLite's journal beside it), and the commands
/// that read a store say there is none yet.
struct StoreFile {
    /// The file's path, resolved against the mapping file that names it; `nil` for a store
    /// without a file (PostgreSQL, memory, SQLite's `:memory:`).
    let path: String?

    /// The file of `config`'s store, if it has one.
    init(_ config: PluginConfig) {
        let path = config["path"]?.scalar?.text ?? "rmap.sqlite"
        self.path = ["sqlite", "json"].contains(config.plugin) && path != ":memory:" ? config.resolvePath(path) : nil
    }

    /// Whether the file exists.
    var exists: Bool { path.map { FileManager.default.fileExists(atPath: $0) } ?? false }

    /// Whether a run has committed into the file: it exists and is not empty.
    var holdsStore: Bool {
        guard let path, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else {
            return false
        }
        return size > 0
    }

    /// Removes the file when it holds no store (a run created it and failed before it committed),
    /// with SQLite's rollback journal.
    func removeIfEmpty() {
        guard let path, exists, !holdsStore else { return }
        for file in [path, path + "-journal"] { try? FileManager.default.removeItem(atPath: file) }
    }
}
