import Foundation

/// The files rmap reads whole or to their end (mapping files, payload files, a JSON store)
/// must be regular files: a device such as `/dev/zero` or `/dev/urandom` never ends, and a
/// pipe or socket is a stream (the `stdin` source reads streams).
///
/// ```swift
/// if let problem = RegularFile.problem(at: "/dev/zero") { print(problem) }
/// // is a character device, not a regular file
/// ```
public enum RegularFile {
    /// Why `path` is not a regular file, as a message says it (`is a character device, not a
    /// regular file`); `nil` when it is one, or when it does not exist (opening it says so).
    public static func problem(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return problem(mode: status.st_mode)
    }

    /// Like ``problem(at:)``, for a file already open.
    static func problem(descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return problem(mode: status.st_mode)
    }

    private static func problem(mode: mode_t) -> String? {
        let kind: String
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: kind = "a directory"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFIFO: kind = "a pipe"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        return "is \(kind), not a regular file"
    }
}
