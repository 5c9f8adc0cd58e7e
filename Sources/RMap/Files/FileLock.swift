import Foundation

/// An exclusive lock on a lock file (`flock`), as SQLite locks its database: held until
/// ``release()`` or the end of the process, a kill included (the system drops it then).
///
/// Another process that wants it waits, up to a timeout, then fails: writers queue, and
/// one whose wait is too long learns why. The lock file is left in place: removing it
/// while another process waits on it would let two processes hold "the" lock at once.
///
/// ```swift
/// let lock = try FileLock(path: "graph.json.lock", waiting: .seconds(5))
/// defer { lock.release() }
/// ```
final class FileLock {
    /// The lock file.
    let path: String
    private var descriptor: Int32

    /// Takes the lock on `path` (creating the file, mode 0600, or opening it to read when it is
    /// another user's), waiting up to `timeout` for another process to release it.
    ///
    /// - Throws: ``FileLockError`` when the file cannot be opened or the wait ran out.
    init(path: String, waiting timeout: Duration) throws(FileLockError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EACCES || errno == EROFS { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .unopenable(path: path, reason: String(cString: strerror(errno))) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                close(descriptor)
                throw .unopenable(path: path, reason: String(cString: strerror(reason)))
            }
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw .held(path: path, waited: timeout)
            }
            Thread.sleep(forTimeInterval: 0.02)  // then try again
        }
    }

    deinit { release() }

    /// Gives the lock up (closing the file drops it); a second call does nothing.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}

/// Why a ``FileLock`` was not taken.
enum FileLockError: Error, Equatable {
    /// Another process held the lock for all of `waited`.
    case held(path: String, waited: Duration)
    /// The lock file could not be created or opened (`reason`: the system's words).
    case unopenable(path: String, reason: String)
}
