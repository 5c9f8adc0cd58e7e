/// The payloads' names by number (``StageSchema/originsName``), read once for messages that
/// name where a record came from: `samples/people.json#3`.
struct OriginNames {
    private var names: [Int64: String] = [:]

    /// No names yet.
    init() {}

    /// Reads the names staged so far.
    init(engine: any SQLEngine) throws {
        let q = engine.dialect.quote
        try engine.query(
            "SELECT \(q("_origin")), \(q("_name")) FROM \(q(StageSchema.originsName))", [], types: [.int, .string]
        ) { row in
            if case .int(let number) = row[0], case .string(let name) = row[1] { names[number] = name }
        }
    }

    /// `name#record` for a payload number and a record index (values as read).
    func origin(_ number: Value, _ record: Value) -> String {
        guard case .int(let payload) = number else { return "" }
        let name = names[payload] ?? ""
        guard case .int(let index) = record, index >= 0 else { return name }
        return "\(name)#\(index)"
    }
}
