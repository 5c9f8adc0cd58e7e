/// The `{placeholder}` names of a `nested_path` such as `people/{personId}/projects`.
public enum NestedPath {
    /// The placeholder names in order.
    public static func placeholders(in path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
