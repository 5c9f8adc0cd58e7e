/// An `exec` stage or transformer that failed the run: the program could not
/// start, exited with a non-zero status, or printed a line rmap cannot apply.
public struct ExecError: OriginError {
    /// The program (`exec python3 enrich.py`), with the output line when one is at fault.
    public var origin: String
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(origin: String, message: String) {
        self.origin = origin
        self.message = message
    }
}

extension ExecError {
    /// An output line of an `exec` program as JSON.
    ///
    /// - Throws: ``ExecError`` naming the line (`origin`) when it is not UTF-8 JSON.
    static func parse(_ line: [UInt8], origin: String) throws(ExecError) -> JSONValue {
        do {
            return try JSONReader.parse(line, origin: origin)
        } catch {
            let column = error.column.map { " (column \($0))" } ?? ""
            throw ExecError(origin: origin, message: "not JSON: \(error.message)\(column)")
        }
    }
}
