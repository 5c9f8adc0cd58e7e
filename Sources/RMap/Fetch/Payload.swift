/// What a source delivers: JSON records for one entity, with where they came from.
public struct Payload: Sendable {
    /// The payload's content.
    public enum Body: Sendable {
        /// A parsed document; records are selected by the entity's `records:` or the Rails wrappers.
        case document(JSONValue)
        /// A `.json` or `.jsonl` file, streamed record by record.
        case file(path: String)
        /// Records already selected (an `exec` plugin's JSON lines).
        case records([JSONValue])
    }

    /// A file path or URL, named in record errors.
    public var origin: String
    /// The entity whose records these are.
    public var entity: String
    /// The content.
    public var body: Body
    /// Values this payload's records get for attributes the payload lacks
    /// (a nested fetch fills the parent's key, e.g. `personId`).
    public var fill: [String: Value]

    /// Creates a payload.
    public init(origin: String, entity: String, body: Body, fill: [String: Value] = [:]) {
        self.origin = origin
        self.entity = entity
        self.body = body
        self.fill = fill
    }
}
