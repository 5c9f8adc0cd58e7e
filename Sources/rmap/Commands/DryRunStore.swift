import Foundation
import RMap

/// The store a `--dry-run` writes to, so that a dry run creates no file.
enum DryRunStore {
    /// `config`, except that a store file that does not exist yet becomes a store in memory: it
    /// starts as empty as the new file would, and vanishes with the run (an SQLite file an
    /// in-memory database, a JSON document the `memory` store, so that not even its lock file is made).
    static func config(_ config: PluginConfig) -> PluginConfig {
        guard ["sqlite", "json"].contains(config.plugin) else { return config }
        let path = config["path"]?.scalar?.text ?? "rmap.sqlite"
        guard path != ":memory:", !FileManager.default.fileExists(atPath: config.resolvePath(path)) else {
            return config
        }
        return config.plugin == "json"
            ? PluginConfig(plugin: "memory") : PluginConfig(plugin: "sqlite", options: ["path": ":memory:"])
    }
}
