import Foundation

/// Why a file cannot be read, as a message says it.
enum UnreadableFile {
    /// `no such file`, `is a directory`, `is a character device, not a regular file` (any other
    /// kind of file: ``RegularFile``), `permission denied`, or `unreadable` for anything else.
    static func reason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "is a directory" }
        if let problem = RegularFile.problem(at: path) { return problem }
        return FileManager.default.isReadableFile(atPath: path) ? "unreadable" : "permission denied"
    }
}
