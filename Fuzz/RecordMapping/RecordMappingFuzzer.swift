import Foundation
import FuzzSupport
import RMap

/// Where the payload files go: one directory per fuzzing process, in memory
/// where the system offers it (a loaded disk stalls writes for seconds).
private let directory: URL = {
    let shared = URL(fileURLWithPath: "/dev/shm")
    let base = FileManager.default.fileExists(atPath: shared.path) ? shared : FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("rmap-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// libFuzzer's entry: maps the bytes as a payload of people and of projects
/// of the pipeline model, streamed as a `.json` file, as a `.jsonl` file and
/// as a parsed document, staged as a run stages them (into batches no store
/// receives). Mapping may only fail with the errors it documents (``JSONError``, ``FetchError``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordMapping(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    var bodies: [Payload.Body] = ["payload.json", "payload.jsonl"].map { name in
        let url = directory.appendingPathComponent(name)
        try? bytes.write(to: url)
        return .file(path: url.path)
    }
    if let document = try? JSONReader.parse(bytes, origin: "payload") { bodies.append(.document(document)) }
    let mapper = RecordMapper(
        checking: GraphSchema(model: FuzzFixtures.model), transformers: FuzzFixtures.registry.transformers)
    for entity in ["CRMPerson", "CRMProject"] {
        for body in bodies {
            do {
                try mapper.map(Payload(origin: "payload", entity: entity, body: body))
            } catch {
                precondition(error is JSONError || error is FetchError, "undocumented error: \(error)")
            }
        }
    }
    _ = mapper.report.errors.map(\.description)
    return 0
}
