import Foundation
import RMap

/// Loads mapping text the way `rmap` does, with a fixed catalog and environment.
enum LoaderHarness {
    /// The plugins and transformers the test files may name.
    static let catalog = PluginCatalog(
        sources: ["file": ["path"], "stdin": ["entity"], "http": ["site", "suffix", "headers"]],
        stores: ["sqlite": ["path"], "memory": []],
        transformers: ["trim", "lowercase"])

    /// Loads one or more files given as (path, text).
    static func load(
        _ documents: [(path: String, text: String)], environment: [String: String] = [:]
    ) throws(MappingError) -> MappingModel {
        try MappingLoader(environment: environment, catalog: catalog).load(documents: documents)
    }

    /// Loads `mappings/crm.yml` with this text.
    static func load(_ text: String, environment: [String: String] = [:]) throws(MappingError) -> MappingModel {
        try load([("mappings/crm.yml", text)], environment: environment)
    }

    /// Every issue the files produce, as `file:line:col: message` lines; empty when they load.
    static func issues(_ documents: [(path: String, text: String)], environment: [String: String] = [:]) -> [String] {
        do {
            _ = try load(documents, environment: environment)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    /// Every issue `mappings/crm.yml` with this text produces.
    static func issues(_ text: String, environment: [String: String] = [:]) -> [String] {
        issues([("mappings/crm.yml", text)], environment: environment)
    }

    /// The repository's root folder (this file is Tests/RMapTests/Loading/LoaderHarness.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
