/// The UTF-8 byte order mark (`EF BB BF`), which some tools write first.
/// Every source accepts one at the very start of its input and drops it
/// (files, HTTP bodies, standard input, an exec program's output); anywhere
/// else it is not JSON.
enum UTF8BOM {
    /// The mark's bytes.
    static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The mark's length when `input` starts with it, else 0.
    static func length(at input: some Collection<UInt8>) -> Int {
        input.starts(with: bytes) ? bytes.count : 0
    }
}
