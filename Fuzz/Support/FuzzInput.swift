/// What a harness makes of libFuzzer's bytes.
public enum FuzzInput {
    /// The bytes as text, ill-formed UTF-8 repaired (as readers of files do).
    public static func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// The bytes as command-line arguments: NUL separates them, as in `argv`.
    ///
    /// `run\0crm.yml\0--strict` is `["run", "crm.yml", "--strict"]`.
    public static func arguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> [String] {
        UnsafeBufferPointer(start: data, count: size)
            .split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
