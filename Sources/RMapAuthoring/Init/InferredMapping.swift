public import RMap

/// A mapping inferred from sample payloads: what ``MappingWriter`` writes as
/// a mapping file, and what the inference noticed on the way.
public struct InferredMapping: Sendable {
    /// The entity prefix (`CRM`), or empty.
    public var prefix: String
    /// The entities: payloads' own first, then those only seen nested.
    public var entities: [InferredEntity]
    /// What was inferred and what was not sure, in the order noticed.
    public var notes: [InferenceNote]
}

/// Something ``MappingInference`` wants a person to know.
public struct InferenceNote: Sendable, Hashable, CustomStringConvertible {
    /// Whether the note reports a decision or a doubt.
    public enum Kind: String, Sendable, Hashable {
        /// A decision taken from clear evidence.
        case inferred
        /// A guess a person should check.
        case unsure
    }

    /// Decision or doubt.
    public var kind: Kind
    /// The sentence, naming the entity and attribute.
    public var message: String

    /// A decision.
    public static func inferred(_ message: String) -> InferenceNote { InferenceNote(kind: .inferred, message: message) }

    /// A doubt.
    public static func unsure(_ message: String) -> InferenceNote { InferenceNote(kind: .unsure, message: message) }

    /// `inferred: CRMPerson: identity id` or `unsure: ...`.
    public var description: String { "\(kind.rawValue): \(message)" }
}

/// One entity of an ``InferredMapping``.
public struct InferredEntity: Sendable {
    /// A `type` key that looks like Rails' single-table inheritance.
    public struct TypeKey: Sendable, Hashable {
        /// The payload key: `type`.
        public var key: String
        /// The values seen, sorted: `Admin`, `Person`.
        public var values: [String]
    }

    /// Where the entity's records are fetched from.
    public enum Source: Sendable, Hashable {
        /// Files, by the paths the user gave.
        case file(String)
        /// `GET {site}/{path}{suffix}?{query}`.
        case http(site: String, path: String, suffix: String, query: String)
        /// JSON:API documents from `{site}/{path}{suffix}` (`format: jsonapi`).
        case jsonAPI(site: String, path: String, suffix: String)
    }

    /// The entity's name, prefix included: `CRMPerson`.
    public var name: String
    /// Where its records come from; `nil` when they only arrive nested (`source: false`).
    public var source: Source?
    /// The key path to the records (`items`), when the default would not find them.
    public var records: String?
    /// How many records the samples held (a nested object seen twice counts twice).
    public var recordCount: Int
    /// The identity attribute, when one was found.
    public var identity: String?
    /// When no one key tells the records apart: the required scalar attributes that together
    /// identify a record, written as a composite `identity:` to check; empty otherwise.
    public var compositeIdentity: [String] = []
    /// The `type` key and the values seen, when it looks like Rails' single-table inheritance.
    public var typeKey: TypeKey?
    /// The attributes, in the order their keys first appeared.
    public var attributes: [InferredAttribute]
    /// The relationships, nested ones first.
    public var relationships: [InferredRelationship]
}

/// One attribute of an ``InferredEntity``.
public struct InferredAttribute: Sendable, Hashable {
    /// The attribute's name: `firstName`.
    public var name: String
    /// The key path when the naming rule would not find it (`address.city`, `+1`).
    public var key: [String]?
    /// The type.
    public var type: AttributeType
    /// A `format:` for datetimes that are not ISO 8601 (`epoch_s`, a pattern).
    public var format: String?
    /// True when every sample record had a non-null value.
    public var required: Bool
    /// A remark written beside it (`values seen: Admin, Person`).
    public var comment: String?
}

/// One relationship of an ``InferredEntity``.
public struct InferredRelationship: Sendable, Hashable {
    /// `foreign_key: {personId: id}`: the source attribute and the destination attribute.
    public struct ForeignKey: Sendable, Hashable {
        /// The source entity's attribute: `personId`.
        public var source: String
        /// The destination's attribute: `id`.
        public var destination: String
    }

    /// The relationship's name: `projects`.
    public var name: String
    /// The destination entity.
    public var destination: String
    /// To-many or to-one.
    public var toMany: Bool
    /// True when the payload embeds the destination's records under the key.
    public var nested: Bool
    /// The payload key when the naming rule would not find it.
    public var key: String?
    /// The destination's relationship back, when there is one.
    public var inverse: String?
    /// `foreign_key: {source: destination}` for connected relationships.
    public var foreignKey: ForeignKey?
    /// A remark written beside it.
    public var comment: String?
}
