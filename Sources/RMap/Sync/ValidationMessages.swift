/// The messages of a `422 Unprocessable Entity` answer, in either form Rails
/// renders: a hash (`{"name": ["can't be blank"]}`, also under `errors`)
/// becomes `name can't be blank`; a list (`{"errors": ["Name can't be blank"]}`)
/// is kept as it is.
enum ValidationMessages {
    static func parse(_ answer: JSONValue?) -> [String] {
        guard let answer else { return [] }
        var errors = answer
        if let object = answer.object, let inner = object["errors"] { errors = inner }
        if let list = errors.array { return list.map(text) }
        guard let hash = errors.object else { return [text(errors)] }
        return hash.members.flatMap { member in
            let messages = member.value.array ?? [member.value]
            return messages.map { member.key == "base" ? text($0) : "\(member.key) \(text($0))" }
        }
    }

    private static func text(_ json: JSONValue) -> String {
        switch json {
        case .string(let text): text
        default: JSONWriter.serialize(json)
        }
    }
}
