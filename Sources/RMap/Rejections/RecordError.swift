/// A record that could not be mapped: the record is rejected (nothing of it
/// reaches the graph) and mapping goes on with the next one.
///
/// Its description says where the record is and what is wrong with it:
///
/// ```
/// samples/people.json record 3 (CRMPerson id=7): attribute 'bornOn' (key born_on): cannot read "1990-13-01" as a date
/// ```
public struct RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entity the record was mapped as, e.g. `CRMPerson` (for a nested record, the nested entity).
    public var entity: String
    /// The record's identity as `name=value` pairs (`id=7`, `region=eu, id=7`), when it could be read.
    public var identity: String?
    /// The attribute concerned, when the problem is one attribute's value.
    public var attribute: String?
    /// The key path of the offending value from the top of the payload's record,
    /// e.g. `born_on`, `address.city` or `projects.1.budget` for a nested record.
    public var keyPath: String?
    /// The offending payload value as compact JSON, shortened for display.
    public var value: String?
    /// The payload's file path or URL.
    public var origin: String
    /// The 0-based index of the (top-level) record in its payload.
    public var index: Int
    /// What is wrong, e.g. `cannot read "1990-13-01" as a date`.
    public var message: String

    /// Creates a record error.
    public init(
        entity: String, identity: String? = nil, attribute: String? = nil, keyPath: String? = nil,
        value: String? = nil, origin: String, index: Int, message: String
    ) {
        self.entity = entity
        self.identity = identity
        self.attribute = attribute
        self.keyPath = keyPath
        self.value = value
        self.origin = origin
        self.index = index
        self.message = message
    }

    /// `origin record index (Entity identity): attribute 'name' (key path): message`.
    public var description: String {
        var text = "\(origin) record \(index) (\(entity)\(identity.map { " \($0)" } ?? ""))"
        switch (attribute, keyPath) {
        case (let attribute?, let keyPath?): text += ": attribute '\(attribute)' (key \(keyPath))"
        case (let attribute?, nil): text += ": attribute '\(attribute)'"
        case (nil, let keyPath?): text += ": key \(keyPath)"
        case (nil, nil): break
        }
        return text + ": " + message
    }
}
