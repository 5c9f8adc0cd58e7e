/// A failure to fetch, naming what was being fetched.
public struct FetchError: OriginError {
    /// The file, URL or command that failed (secrets redacted).
    public var origin: String
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(origin: String, message: String) {
        self.origin = origin
        self.message = message
    }
}
