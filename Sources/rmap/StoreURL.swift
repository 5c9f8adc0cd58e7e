import RMap

/// Reads `--store` values into the store configuration a mapping file's
/// `store:` block would give.
///
/// | value | store |
/// |---|---|
/// | `sqlite:PATH`, or a bare `PATH` | `sqlite`, `path: PATH` |
/// | `postgres://...`, `postgresql://...` | `postgres`, `url:` the whole URL (libpq reads `sslmode` and the other TLS parameters from its query) |
/// | `json:PATH` | `json`, `path: PATH` |
/// | `memory:` | `memory` |
///
/// Relative paths are relative to the working directory.
enum StoreURL {
    /// The configuration `text` names.
    ///
    /// - Throws: a message for a usage error when the scheme is unknown or a path is missing.
    static func parse(_ text: String) throws(StoreURLError) -> PluginConfig {
        guard let scheme = scheme(of: text) else { return config("sqlite", path: text) }
        let rest = String(text.dropFirst(scheme.count + 1))
        switch scheme.lowercased() {
        case "sqlite", "json":
            guard !rest.isEmpty else {
                throw StoreURLError(message: "'\(scheme):' needs a path, e.g. '\(scheme):data/rmap.\(scheme)'")
            }
            return config(scheme.lowercased(), path: rest)
        case "postgres", "postgresql":
            guard rest.hasPrefix("//") else {
                throw StoreURLError(message: "a PostgreSQL store is a URL: 'postgres://user@host/database'")
            }
            return config("postgres", options: [("url", text)])
        case "memory":
            guard rest.isEmpty else { throw StoreURLError(message: "'memory:' takes nothing after the colon") }
            return config("memory", options: [])
        default:
            let schemes = ["sqlite", "postgres", "postgresql", "json", "memory"]
            throw StoreURLError(
                message: "unknown store '\(scheme):'\(Suggestion.hint(for: scheme, in: schemes)); "
                    + "use sqlite:PATH, postgres://..., json:PATH or memory:")
        }
    }

    /// The URL scheme before the first colon (`letter (letter | digit | + - .)*`), if the text has one.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
            candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(candidate)
    }

    private static let mark = Mark(file: "--store", line: 1, column: 1)

    private static func config(_ plugin: String, path: String) -> PluginConfig {
        config(plugin, options: [("path", path)])
    }

    private static func config(_ plugin: String, options: [(String, String)]) -> PluginConfig {
        let pairs = options.map { key, value in
            YAMLPair(
                key: .scalar(YAMLScalar(text: key, style: .plain, mark: mark)),
                value: .scalar(YAMLScalar(text: value, style: .doubleQuoted, mark: mark)))
        }
        return PluginConfig(plugin: plugin, options: .mapping(pairs, mark), baseDirectory: "", mark: mark)
    }
}

/// A `--store` value that names no store.
struct StoreURLError: Error {
    /// What is wrong and what to write instead.
    var message: String
}
