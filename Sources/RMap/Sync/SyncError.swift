/// A sync operation the store's contents or the model do not allow, e.g. an
/// unknown entity or attribute, or a server answer without an identity.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a sentence.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
