public import Foundation

/// Where a transport puts an answer's body, and how much of it is allowed.
///
/// A `2xx` body goes to ``file`` when one is given (the answer's `body` is
/// then empty), any other body to memory. More than ``limit`` bytes, counted
/// as they arrive, stop the transfer with ``HTTPError/Reason/tooLarge(limit:)``.
///
/// ```swift
/// let destination = BodyDestination(limit: 256 << 20, file: spool)
/// let response = try await transport.send(request, timeout: .seconds(30), body: destination)
/// ```
public struct BodyDestination: Sendable, Hashable {
    /// The most bytes a body may have.
    public var limit: Int
    /// The file that receives a successful answer's body, or `nil` to keep it in memory.
    public var file: URL?

    /// Creates a destination.
    public init(limit: Int, file: URL? = nil) {
        self.limit = limit
        self.file = file
    }
}
