/// A hash of everything in a model that decides what a payload maps to: every entity as
/// loaded (after `${VAR}` interpolation, so a changed variable changes it), the stages, and
/// the rmap version. Dictionaries and sets are taken in sorted order, so the same model
/// hashes the same in every process.
enum MappingFingerprint {
    /// The fingerprint of `model`, as 16 hex digits.
    static func of(_ model: MappingModel) -> String {
        var text = "rmap \(RMapVersion.current)\n"
        describe(model.entities, into: &text)
        describe(model.stages, into: &text)
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
