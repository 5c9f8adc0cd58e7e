import Foundation

/// Why a file cannot be read, as a message says it.
enum UnreadableFile {
    /// `no such file`, `is a directory`, `permission denied`, or `unreadable` for anything else.
    static func reason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "is a directory" }
        return FileManager.default.isReadableFile(atPath: path) ? "unreadable" : "permission denied"
    }
}
