import Foundation

/// Replaces a file's contents all at once: the bytes go to a temporary file beside it
/// (`.<name>.tmp-XXXXXX`, same folder, so same file system), which is flushed to disk and
/// renamed over the file. A reader sees the old file or the new one, never a part; a crash
/// leaves the old file and, at worst, a temporary one that ``removeLeftovers(of:)`` deletes.
///
/// ```swift
/// try AtomicFile.write(JSONWriter.serialize(document), to: "graph.json")
/// ```
enum AtomicFile {
    /// Writes `text` (UTF-8) as the new contents of `path`. An existing file keeps its mode; a
    /// new one gets 0666 less the umask, as any file a program creates.
    ///
    /// - Throws: ``AtomicFileError`` naming the step that failed; the file is then as it was.
    static func write(_ text: String, to path: String) throws(AtomicFileError) {
        let (folder, name) = split(path)
        let (descriptor, temporary) = try create(in: folder, prefix: prefix(name), for: path)
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(temporary) }
        }
        var status = stat()
        if stat(path, &status) == 0, fchmod(descriptor, status.st_mode & 0o7777) != 0 {
            throw failure(path, "cannot give the temporary file the store's mode")
        }
        try writeAll(text, to: descriptor, path: path)
        guard fsync(descriptor) == 0 else { throw failure(path, "cannot flush the temporary file") }
        guard rename(temporary, path) == 0 else { throw failure(path, "cannot rename the temporary file over it") }
        done = true
        let directory = open(folder, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)  // the rename itself reaches the disk
            close(directory)
        }
    }

    /// Deletes the temporary files a crashed ``write(_:to:)`` of `path` left beside it. Call it only
    /// while no other process can be writing `path` (holding its lock).
    static func removeLeftovers(of path: String) {
        let (folder, name) = split(path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for leftover in names where leftover.hasPrefix(prefix(name)) && leftover.count == prefix(name).count + 6 {
            unlink("\(folder)/\(leftover)")
        }
    }

    private static func prefix(_ name: String) -> String { ".\(name).tmp-" }

    private static func split(_ path: String) -> (folder: String, name: String) {
        let url = URL(fileURLWithPath: path)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }

    /// A new temporary file `<prefix>XXXXXX` in `folder`, mode 0666 less the umask.
    private static func create(
        in folder: String, prefix: String, for path: String
    ) throws(AtomicFileError) -> (descriptor: Int32, path: String) {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        while true {
            let suffix = String((0..<6).map { _ in letters[Int.random(in: 0..<letters.count)] })
            let temporary = "\(folder)/\(prefix)\(suffix)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, temporary) }
            guard errno == EEXIST else { throw failure(path, "cannot create a temporary file beside it") }
        }
    }

    private static func writeAll(_ text: String, to descriptor: Int32, path: String) throws(AtomicFileError) {
        var text = text
        let failed = text.withUTF8 { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += written
            }
            return false
        }
        if failed { throw failure(path, "cannot write the temporary file") }
    }

    private static func failure(_ path: String, _ step: String) -> AtomicFileError {
        AtomicFileError(path: path, reason: "\(step): \(String(cString: strerror(errno)))")
    }
}

/// Why ``AtomicFile/write(_:to:)`` left a file as it was.
struct AtomicFileError: Error, Equatable {
    /// The file.
    var path: String
    /// The step that failed and the system's reason.
    var reason: String
}
