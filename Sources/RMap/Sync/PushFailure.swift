/// A change the server did not acknowledge: it stays pending for the next push.
///
/// Its description is one line per object, e.g. `CRMProject 61: name can't be blank`.
public struct PushFailure: Sendable, Equatable, CustomStringConvertible {
    /// The object, e.g. `CRMProject 61` or `CRMProject (new)`.
    public var object: String
    /// The request, `METHOD path`.
    public var request: String
    /// The answer's status, when the server answered.
    public var status: Int?
    /// What went wrong: the server's validation errors for a `422`, else one message.
    public var messages: [String]

    /// Creates a failure.
    public init(object: String, request: String, status: Int?, messages: [String]) {
        self.object = object
        self.request = request
        self.status = status
        self.messages = messages
    }

    public var description: String { "\(object): \(messages.joined(separator: ", "))" }
}
