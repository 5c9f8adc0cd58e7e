import Foundation
import RMap

/// The plugins the command line offers. The one place to change when a
/// plugin module provides a real implementation.
enum RegistryFactory {
    /// Every built-in source, store and transformer.
    static func standard() -> PluginRegistry {
        let registry = PluginRegistry()
        let sources: [(String, [String])] = [
            ("file", ["path"]),
            ("stdin", ["entity"]),
            ("exec", ["command", "env"]),
            (
                "http",
                [
                    "site", "suffix", "headers", "auth", "page_size", "paginate", "timeout", "retries", "concurrency",
                    "params",
                ]
            ),
        ]
        for (name, options) in sources {
            registry.register(source: name, options: options) { _, _ in throw unavailable("source", name) }
        }
        let stores: [(String, [String])] = [
            ("sqlite", ["path"]),
            ("postgres", ["url", "sslmode", "sslrootcert", "sslcert", "sslkey"]),
            ("json", ["path"]),
            ("memory", []),
        ]
        for (name, options) in stores {
            registry.register(store: name, options: options) { _ in throw unavailable("store", name) }
        }
        for (name, transform) in transformers {
            registry.register(
                transformer: name,
                ClosureTransformer { value in
                    guard case .string(let text) = value else { return value }
                    return transform(text)
                })
        }
        return registry
    }

    private static func unavailable(_ kind: String, _ name: String) -> PluginError {
        PluginError(message: "the '\(name)' \(kind) plugin is not available yet")
    }

    /// The string transformers; other values pass through unchanged.
    private static let transformers: [(String, @Sendable (String) -> Value)] = [
        ("trim", { .string($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
        ("lowercase", { .string($0.lowercased()) }),
        ("uppercase", { .string($0.uppercased()) }),
        ("capitalize", { .string($0.prefix(1).uppercased() + $0.dropFirst().lowercased()) }),
        ("squish", { .string($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }),
        ("nullify_blank", { $0.allSatisfy(\.isWhitespace) ? .null : .string($0) }),
    ]
}
