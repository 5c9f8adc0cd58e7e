import Foundation
import RMap

/// The store a `--dry-run` writes to, so that a dry run creates no file.
enum DryRunStore {
    /// `config`, except that an SQLite file that does not exist yet becomes an in-memory
    /// database: it starts as empty as the new file would, and vanishes with the run.
    static func config(_ config: PluginConfig) -> PluginConfig {
        guard config.plugin == "sqlite" else { return config }
        let path = config["path"]?.scalar?.text ?? "rmap.sqlite"
        guard path != ":memory:", !FileManager.default.fileExists(atPath: config.resolvePath(path)) else {
            return config
        }
        return PluginConfig(plugin: "sqlite", options: ["path": ":memory:"])
    }
}
