import Foundation

/// A statement's `$1`, `$2`, … parameters in PostgreSQL's text format (`nil` is SQL NULL), checked
/// and handed to libpq as its array of NUL-terminated values.
///
/// ```swift
/// let parameters = try PostgresParameters(["7", nil], for: .query, on: connection)
/// parameters.withPointers { PQexecParams(handle, sql, 2, nil, $0, nil, nil, 0) }
/// ```
struct PostgresParameters {
    /// The values, in order.
    let values: [String?]

    /// The parameters `values`, checked for `operation` on `connection`.
    ///
    /// - Throws: ``PostgresError`` when a value holds a NUL character, which PostgreSQL text
    ///   cannot hold and libpq would silently cut at.
    init(_ values: [String?], for operation: PostgresError.Operation, on connection: PostgresConnection)
        throws(PostgresError)
    {
        if let index = values.firstIndex(where: { $0?.utf8.contains(0) == true }) {
            throw connection.error(
                operation,
                message: "parameter $\(index + 1) contains a NUL character, which PostgreSQL text cannot hold")
        }
        self.values = values
    }

    /// How many parameters there are, as libpq counts them.
    var count: Int32 { Int32(values.count) }

    /// Calls `body` with libpq's array of NUL-terminated parameter values.
    func withPointers<Result>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        let owned: [UnsafeMutablePointer<CChar>?] = values.map { value in value.flatMap { strdup($0) } }
        defer { for pointer in owned { free(pointer) } }
        let pointers = owned.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
