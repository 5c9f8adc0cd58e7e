/// One message of the Singer specification's JSON Lines stream, as a tap writes it.
///
/// ```swift
/// let message = try SingerMessage(line: Array(#"{"type":"STATE","value":{"page":2}}"#.utf8), number: 1, origin: "stdin")
/// // .state(value: {"page": 2})
/// ```
public enum SingerMessage: Sendable, Equatable {
    /// `SCHEMA`: a stream's JSON schema and the record keys that identify a record.
    case schema(stream: String, keyProperties: [String], schema: JSONValue)
    /// `RECORD`: one record of a stream, with the table version it belongs to, if any.
    case record(stream: String, record: JSONValue, version: Int?)
    /// `STATE`: where the tap would resume, valid once every record before it is stored.
    case state(value: JSONValue)
    /// `ACTIVATE_VERSION`: the stream's records of `version` are now the whole stream.
    case activateVersion(stream: String, version: Int)

    /// Parses one line; `nil` for a blank line or a message type the specification leaves to
    /// taps (such as `BATCH` or a metric), which rmap ignores.
    ///
    /// - Parameters:
    ///   - line: the line's bytes, without the newline.
    ///   - number: the 1-based line number, for errors.
    ///   - origin: the tap's command or `stdin`, for errors.
    /// - Throws: ``SingerError`` naming the line when it is not JSON or not a well-formed message.
    public init?(line: [UInt8], number: Int, origin: String) throws(SingerError) {
        guard !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) else { return nil }
        let value: JSONValue
        do {
            value = try JSONReader.parse(line, origin: origin)
        } catch {
            throw SingerError(origin: origin, line: number, message: "not JSON: \(error.message)")
        }
        let fields = MessageFields(value: value, origin: origin, line: number)
        switch try fields.text("type") {
        case "SCHEMA":
            self = .schema(
                stream: try fields.text("stream"), keyProperties: try fields.keyProperties(),
                schema: try fields.member("schema"))
        case "RECORD":
            self = .record(
                stream: try fields.text("stream"), record: try fields.object("record"),
                version: try fields.version(required: false))
        case "STATE":
            self = .state(value: try fields.member("value"))
        case "ACTIVATE_VERSION":
            guard let version = try fields.version(required: true) else { return nil }
            self = .activateVersion(stream: try fields.text("stream"), version: version)
        default:
            return nil
        }
    }
}

/// The members of one message, read with errors that name the line.
private struct MessageFields {
    let value: JSONValue
    let origin: String
    let line: Int

    private var kind: String { value.object?["type"]?.string ?? "message" }

    func fail(_ message: String) -> SingerError {
        SingerError(origin: origin, line: line, message: message)
    }

    func member(_ key: String) throws(SingerError) -> JSONValue {
        guard let object = value.object else {
            throw fail("expected a Singer message object, found \(value.kindName)")
        }
        guard let member = object[key] else { throw fail("\(kind) has no '\(key)'") }
        return member
    }

    func text(_ key: String) throws(SingerError) -> String {
        let member = try member(key)
        let text = member.string
        guard let text, !text.isEmpty else {
            throw fail("\(kind) needs a non-empty string '\(key)', found \(text == nil ? member.kindName : "\"\"")")
        }
        return text
    }

    func object(_ key: String) throws(SingerError) -> JSONValue {
        let member = try member(key)
        guard member.object != nil else { throw fail("\(kind) needs an object '\(key)', found \(member.kindName)") }
        return member
    }

    /// `key_properties`: absent or `null` is none; otherwise a list of strings.
    func keyProperties() throws(SingerError) -> [String] {
        guard let member = value.object?["key_properties"], member != .null else { return [] }
        guard let items = member.array, items.allSatisfy({ $0.string != nil }) else {
            throw fail("SCHEMA needs 'key_properties' to be a list of strings, found \(member.kindName)")
        }
        return items.compactMap(\.string)
    }

    /// `version`: an integer (Singer taps write milliseconds since 1970).
    func version(required: Bool) throws(SingerError) -> Int? {
        guard let member = value.object?["version"], member != .null else {
            if required { throw fail("\(kind) has no 'version'") }
            return nil
        }
        guard case .number(let text) = member, let version = Int(text) else {
            throw fail("\(kind) needs an integer 'version', found \(member.kindName)")
        }
        return version
    }
}
