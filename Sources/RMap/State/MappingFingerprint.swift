/// A hash of everything in a model that decides what a payload maps to: every entity as
/// loaded (after `${VAR}` interpolation, so a changed variable changes it), the stages, and
/// the rmap version. Dictionaries and sets are taken in sorted order, so the same model
/// hashes the same in every process.
enum MappingFingerprint {
    /// The fingerprint of `model`, as 16 hex digits: the one ``MappingLoader`` took of the files
    /// it came from, else a description of the model itself (slower: a few milliseconds an entity).
    static func of(_ model: MappingModel) -> String {
        if let loaded = model.loadedFrom { return loaded }
        var text = "rmap \(RMapVersion.current)\n"
        describe(model.entities, into: &text)
        describe(model.stages, into: &text)
        return String(PayloadHash.of(text), radix: 16)
    }

    /// The fingerprint of a model loaded from `documents` (each file's path and text) with
    /// `variables` (every `${VAR}` read, with its value or `nil` when unset): a model is a
    /// function of these and the rmap version, so this stands for a description of it, in time
    /// linear in the files' size.
    static func of(documents: [(path: String, text: String)], variables: [String: String?]) -> String {
        var text = "rmap \(RMapVersion.current) files\n"
        for document in documents {
            text += "\(document.path.utf8.count):\(document.path)\(document.text.utf8.count):\(document.text)"
        }
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
            text += "\(name.utf8.count):\(name)" + (value.map { "\($0.utf8.count):\($0)" } ?? "-")
        }
        return String(PayloadHash.of(text), radix: 16)
    }

    /// Appends a canonical description of `value`: its type, then its children in order
    /// (sorted for dictionaries and sets), or its own description for a leaf.
    private static func describe(_ value: Any, into text: inout String, depth: Int = 0) {
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty, depth < 64 else {
            text += "\(type(of: value)):\(String(reflecting: value));"
            return
        }
        text += "\(mirror.subjectType){"
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set {
            let members = mirror.children.map { child -> String in
                var member = ""
                describe(child.value, into: &member, depth: depth + 1)
                return member
            }
            text += members.sorted().joined()
        } else {
            for child in mirror.children {
                text += "\(child.label ?? "_")="
                describe(child.value, into: &text, depth: depth + 1)
            }
        }
        text += "}"
    }
}
