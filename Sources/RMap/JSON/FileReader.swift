import Foundation

/// Owns an open file descriptor for sequential reads; closes it in `deinit`.
final class FileReader {
    private let descriptor: Int32
    private let path: String

    /// Opens `path` for reading.
    ///
    /// - Throws: ``JSONError`` naming the path and the system's reason, or saying it is no regular
    ///   file (a device never ends).
    init(path: String) throws(JSONError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw JSONError(origin: path, message: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        if let problem = RegularFile.problem(descriptor: descriptor) {
            close(descriptor)
            throw JSONError(origin: path, message: "cannot read the file: it \(problem)")
        }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Reads until `buffer`'s free space is full or the file ends.
    ///
    /// - Returns: true at the end of the file.
    func fill(_ buffer: InputBuffer) throws(JSONError) -> Bool {
        while buffer.free.count > 0 {
            let free = buffer.free
            let length = read(descriptor, free.baseAddress, free.count)
            if length == 0 { return true }
            if length < 0 {
                if errno == EINTR { continue }
                throw JSONError(origin: path, message: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            buffer.commit(length)
        }
        return false
    }
}
