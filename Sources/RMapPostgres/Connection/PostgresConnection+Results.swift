internal import CLibPQ
import Foundation

// MARK: - Running statements and turning failures into errors

extension PostgresConnection {
    /// Runs `send`, which returns a libpq result (or NULL), and copies the
    /// result out or throws the failure it describes.
    func run(
        _ operation: PostgresError.Operation,
        _ send: () -> OpaquePointer?
    ) throws(PostgresError) -> PostgresResult {
        guard let result = send() else {
            throw error(operation, message: lastErrorMessage)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresResult(copying: result)
        case let status where status == PGRES_COPY_IN || status == PGRES_COPY_OUT:
            abandonCopy(status)
            throw error(
                operation, message: "COPY … FROM STDIN goes through copyIn(_:rows:); COPY … TO STDOUT is not supported")
        default:
            throw error(operation, result: result)
        }
    }

    /// Ends a COPY the server started, so the connection is usable again.
    func abandonCopy(_ status: ExecStatusType) {
        if status == PGRES_COPY_IN {
            _ = PQputCopyEnd(handle, "COPY abandoned by the client")
        } else {
            var row: UnsafeMutablePointer<CChar>?
            while PQgetCopyData(handle, &row, 0) > 0 {
                PQfreemem(row)
            }
        }
        while let result = PQgetResult(handle) {
            PQclear(result)
        }
    }

    /// libpq's latest message for this connection, on one line.
    var lastErrorMessage: String {
        Self.oneLine(Self.text(PQerrorMessage(handle)) ?? "unknown libpq error")
    }

    /// An error for `operation` with a message of our own or from libpq.
    func error(_ operation: PostgresError.Operation, message: String) -> PostgresError {
        PostgresError(operation: operation, message: redactor.redact(message), endpoint: endpoint)
    }

    /// An error for `operation` from the server's fields in a failed result.
    func error(_ operation: PostgresError.Operation, result: OpaquePointer) -> PostgresError {
        func field(_ code: Unicode.Scalar) -> String? {
            Self.text(PQresultErrorField(result, Int32(code.value))).map { redactor.redact(Self.oneLine($0)) }
        }
        let message =
            field("M") ?? redactor.redact(Self.oneLine(Self.text(PQresultErrorMessage(result)) ?? lastErrorMessage))
        return PostgresError(
            operation: operation,
            message: message,
            sqlState: field("C"),
            detail: field("D"),
            hint: field("H"),
            endpoint: endpoint
        )
    }

    /// A C string as a Swift string; `nil` for NULL or empty.
    static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }

    /// libpq's multi-line messages as one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
