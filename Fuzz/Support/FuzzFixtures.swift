import Foundation
public import RMap
import RMapHTTP
import RMapPostgres
import RMapSQLite

/// What every harness maps against: the command line's plugins and the
/// pipeline tests' model (`Tests/Fixtures/pipeline/crm.yml`: every attribute
/// type, a value map, transformers, STI, a nested to-many, a foreign key).
public enum FuzzFixtures {
    /// The plugin and transformer names `rmap` knows.
    public static let registry: PluginRegistry = {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.registerPostgres()
        registry.registerHTTP()
        return registry
    }()

    /// The pipeline tests' model, loaded once.
    public static let model: MappingModel = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Tests/Fixtures/pipeline/crm.yml").standardized.path
        do {
            return try MappingLoader(environment: [:], catalog: registry.catalog).load([path])
        } catch {
            fatalError("the fuzzers' model does not load: \(error)")
        }
    }()
}

/// libFuzzer's set-up entry, called once before the first input: loads the
/// fixtures, so their allocations are not counted against (and reported as
/// leaks of) whichever input first uses them.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> Int32 {
    _ = FuzzFixtures.model
    return 0
}
