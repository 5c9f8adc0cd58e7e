import RMap

/// A `200` answer that is an error all the same (`error_when: {key: ok, equals: false, message: error}`,
/// Slack's `{"ok": false, "error": "invalid_auth"}`): the body's `key` equals `equals`.
struct ErrorEnvelope: Sendable, Hashable {
    /// The key path whose value tells.
    var key: JSONKeyPath
    /// The value that means an error.
    var equals: JSONValue
    /// The key path of the error's message, when the API gives one.
    var message: JSONKeyPath?

    /// The error `document` reports, or `nil` when it is no error: the message found at
    /// ``message``, or what the key says (`ok: false`).
    func error(in document: JSONValue?) -> String? {
        guard let document, key.value(in: document) == equals else { return nil }
        let said = "\(key): \(JSONWriter.serialize(equals))"
        guard let message, let found = message.value(in: document) else { return said }
        return "\(found.string ?? JSONWriter.serialize(found)) (\(said))"
    }
}
