/// A record's attribute values read by its entity's plan: stateless, so that they may be read
/// on the mapping thread (``RecordConverter``) or ahead of it, on the thread that parsed the
/// payload (``FieldPreparer``).
enum RecordFields {
    /// Every attribute's value and the count of unmapped keys. Reads nothing but the record
    /// and the plan, so it may run on any thread that owns the plan (``FieldPreparer``).
    static func read(_ object: JSONObject, _ plan: EntityPlan) -> ConvertedFields {
        var fields = ConvertedFields(values: plan.takeValues())
        withUnsafeTemporaryAllocation(of: Int.self, capacity: plan.slots.count) { positions in
            fields.unmapped = object.members.count - plan.locate(object, into: positions)
            for attribute in plan.attributes {
                let position = positions[attribute.slot]
                guard position >= 0 else { continue }
                switch lookup(object.members[position].value, rest: attribute.rest) {
                case .missing:
                    continue
                case .notAnObject(let found, let key):
                    fields.failures.append(
                        (
                            attribute.name, attribute.key, found,
                            "expected an object at '\(key)', found \(found.kindName)"
                        ))
                case .found(let json):
                    switch attribute.value(from: json) {
                    case .success(let value): fields.values[attribute.position] = value
                    case .failure(let failure):
                        fields.failures.append((attribute.name, attribute.key, failure.value, failure.message))
                    }
                }
            }
        }
        return fields
    }

    enum Lookup {
        case missing
        case found(JSONValue)
        /// A value that is not an object where the key path goes on, and the key it was under.
        case notAnObject(JSONValue, key: String)
    }

    /// Follows `rest` from `value`: a missing object on the way means missing, a `null` one means `null`.
    static func lookup(_ value: JSONValue?, rest: [String]) -> Lookup {
        guard var current = value else { return .missing }
        var parent = ""
        for key in rest {
            switch current {
            case .object(let object):
                guard let next = object[key] else { return .missing }
                current = next
                parent = key
            case .null:
                return .found(.null)
            default:
                return .notAnObject(current, key: parent)
            }
        }
        return .found(current)
    }

    /// `{"person": {...}}` -> `{...}` when `element` is the record's only key.
    static func unwrapped(_ object: JSONObject, element: String?) -> JSONObject {
        guard let element, object.members.count == 1, object.members[0].key == element,
            case .object(let inner) = object.members[0].value
        else { return object }
        return inner
    }
}

/// A record's attribute values as converted (`nil` where it has no key), the
/// problems met, and how many of its keys map to nothing.
struct ConvertedFields: Sendable {
    var values: [Value?]
    var failures: [(attribute: String, key: String, value: JSONValue, message: String)] = []
    var unmapped = 0

    /// Adds the payload's fill for the keys the record lacks (every key it names, for a fill
    /// that replaces).
    mutating func fill(from fill: PayloadFill?, _ plan: EntityPlan) {
        guard let fill else { return }
        for (position, value) in fill.entries(for: plan.type) where fill.replaces || values[position] == nil {
            values[position] = value
        }
    }
}
