// Measures JSON parsers producing JSONValue trees; usage: bench <foundation|yajl-noop|yajl|simd|stream> <file>.
import CYAJL
import Foundation
import RMap

final class YajlBuilder {
    var values: [JSONValue] = []
    var keys: [String] = []
    var frames: [(start: Int, keyStart: Int, object: Bool)] = []
    func finish(array: Bool) {
        let frame = frames.removeLast()
        if array {
            let items = Array(values[frame.start...])
            values.removeSubrange(frame.start...)
            values.append(.array(items))
        } else {
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(values.count - frame.start)
            for (i, v) in values[frame.start...].enumerated() { members.append((keys[frame.keyStart + i], v)) }
            values.removeSubrange(frame.start...)
            keys.removeSubrange(frame.keyStart...)
            values.append(.object(JSONObject(members)))
        }
    }
}

func b(_ ctx: UnsafeMutableRawPointer?) -> YajlBuilder { Unmanaged<YajlBuilder>.fromOpaque(ctx!).takeUnretainedValue() }

func yajlParse(_ data: Data) -> JSONValue {
    var callbacks = yajl_callbacks()
    callbacks.yajl_null = { ctx in b(ctx).values.append(.null); return 1 }
    callbacks.yajl_boolean = { ctx, v in b(ctx).values.append(.bool(v != 0)); return 1 }
    callbacks.yajl_number = { ctx, p, n in
        b(ctx).values.append(.number(String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self))); return 1 }
    callbacks.yajl_string = { ctx, p, n in
        b(ctx).values.append(.string(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))); return 1 }
    callbacks.yajl_map_key = { ctx, p, n in
        b(ctx).keys.append(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)); return 1 }
    callbacks.yajl_start_map = { ctx in let x = b(ctx); x.frames.append((x.values.count, x.keys.count, true)); return 1 }
    callbacks.yajl_end_map = { ctx in b(ctx).finish(array: false); return 1 }
    callbacks.yajl_start_array = { ctx in let x = b(ctx); x.frames.append((x.values.count, x.keys.count, false)); return 1 }
    callbacks.yajl_end_array = { ctx in b(ctx).finish(array: true); return 1 }
    let builder = YajlBuilder()
    let handle = yajl_alloc(&callbacks, nil, Unmanaged.passUnretained(builder).toOpaque())
    let chunk = 1 << 20
    data.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = min(chunk, raw.count - offset)
            let st = yajl_parse(handle, raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, n)
            precondition(st == yajl_status_ok)
            offset += n
        }
    }
    precondition(yajl_complete_parse(handle) == yajl_status_ok)
    yajl_free(handle)
    return builder.values[0]
}

let mode = CommandLine.arguments[1]
let path = CommandLine.arguments[2]
let start = Date()
var count = 0
switch mode {
case "foundation":
    let data = FileManager.default.contents(atPath: path)!
    let any = try JSONSerialization.jsonObject(with: data)
    count = (any as! [Any]).count
case "yajl":
    let data = FileManager.default.contents(atPath: path)!
    count = yajlParse(data).array!.count
case "yajl-noop":
    let data = FileManager.default.contents(atPath: path)!
    var callbacks = yajl_callbacks()
    callbacks.yajl_start_map = { ctx in 1 }
    callbacks.yajl_end_map = { ctx in 1 }
    let handle = yajl_alloc(&callbacks, nil, nil)
    data.withUnsafeBytes { raw in _ = yajl_parse(handle, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count) }
    precondition(yajl_complete_parse(handle) == yajl_status_ok)
    count = 1
case "simd":
    let data = FileManager.default.contents(atPath: path)!
    count = try JSONReader.parse(data, origin: path).array!.count
case "stream":
    var keys = 0
    try JSONFileStream(path: path).forEach { item in count += 1; keys += item.value.object?.members.count ?? 0 }
default: fatalError()
}
let seconds = Date().timeIntervalSince(start)
let size = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).intValue)
print(mode, count, String(format: "%.2fs %.1f MB/s %.0f records/s", seconds, size / seconds / 1e6, Double(count) / seconds))
