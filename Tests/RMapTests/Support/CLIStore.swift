import Foundation
import RMap
import Testing

/// A store that `rmap run --store URL` writes in a ``RunWorkspace`` and a test
/// reads back: SQLite in the workspace's `rmap.sqlite`, or PostgreSQL in the
/// workspace's own schema on the test server.
enum CLIStore: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// The `--store` URL for `workspace`.
    func url(for workspace: RunWorkspace) throws -> String {
        switch self {
        case .sqlite: "sqlite:\(workspace.path("rmap.sqlite"))"
        case .postgres: try PostgresSchemas.url(for: workspace.url)
        }
    }

    /// The store `url(for:)` names, opened to read.
    func open(_ workspace: RunWorkspace) throws -> any Store {
        try (self == .sqlite ? StoreKind.sqlite : StoreKind.postgres).open(workspace.url)
    }
}

extension RunWorkspace {
    /// The schema of a mapping file of the workspace, loaded with the standard plugins.
    func schema(_ file: String) throws -> GraphSchema {
        GraphSchema(model: try MappingLoader(catalog: PluginRegistry.standard().catalog).load([path(file)]))
    }
}
