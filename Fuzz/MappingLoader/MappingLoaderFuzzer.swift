import FuzzSupport
import RMap
import RMapAuthoring

/// libFuzzer's entry: loads the bytes as one mapping file. It must give a
/// model that a run's store layout and `rmap inspect` can use, or throw a ``MappingError``
/// with at least one issue; a crash, a trap or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMappingLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let loader = MappingLoader(environment: ["TOKEN": "secret"], catalog: FuzzFixtures.registry.catalog)
    do {
        let model = try loader.load(documents: [(path: "fuzz.yml", text: FuzzInput.text(data, size))])
        _ = StoreLayout(schema: GraphSchema(model: model))
        _ = ModelText.render(model)
        _ = DotGraph.render(model)
    } catch {
        precondition(!error.issues.isEmpty, "a MappingError without issues")
    }
    return 0
}
