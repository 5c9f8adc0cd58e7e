import Foundation

/// The file of a `json` store, shared by its transactions as SQLite shares its database file:
/// read whole (again whenever another process replaced it), replaced whole at each commit
/// (``AtomicFile``), and locked for the time of each write transaction (``FileLock`` on
/// `<path>.lock`), so that two processes writing it at once take turns instead of one
/// overwriting the other's run. Readers take no lock: a replacement is atomic.
final class JSONStoreFile {
    /// The document's path.
    let path: String
    /// How long a write transaction waits for another process's lock.
    let busyTimeout: Duration
    private var lock: FileLock?
    /// What was last read or written: a file replaced since has another identity.
    private var identity: Identity?

    /// The store file at `path` (nothing is read yet).
    init(path: String, busyTimeout: Duration) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// The document as stored now (an absent file is an empty document).
    ///
    /// - Throws: ``PersistError`` when the file cannot be read or is not a JSON object.
    func read() throws -> PendingTables {
        if path.utf8.contains(0) {
            let shown = path.replacingOccurrences(of: "\0", with: "\\0")
            throw PersistError.unreadableFile(path: shown, reason: "the path holds a NUL character")
        }
        if let problem = RegularFile.problem(at: path) {
            throw PersistError.unreadableFile(path: path, reason: problem)
        }
        let current = Identity(path)
        var document = JSONObject()
        if current != nil {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw PersistError.unreadableFile(path: path, reason: error.localizedDescription)
            }
            guard let object = try JSONReader.parse(data, origin: path, maxDepth: JSONStore.maxDepth).object else {
                throw PersistError.notOneObject(path: path)
            }
            document = object
        }
        identity = current
        return PendingTables(document: document, origin: path)
    }

    /// The document as stored now when another process replaced the file since it was last
    /// read or written; `nil` when it is the same.
    ///
    /// - Throws: ``PersistError`` as ``read()`` does.
    func changed() throws -> PendingTables? {
        Identity(path) == identity ? nil : try read()
    }

    /// Takes the store's lock for a write transaction, waiting for another process's write to
    /// end, and deletes what a crashed write left (no other process writes meanwhile). In a
    /// folder this process cannot write, where no lock file can be made, it takes none: it
    /// cannot write the document either (its commit fails), and reading needs no lock.
    ///
    /// - Throws: ``PersistError/locked(path:lockFile:waited:)`` when the wait ran out.
    func lockForWriting() throws {
        do {
            lock = try FileLock(path: path + ".lock", waiting: busyTimeout)
        } catch .held(let lockFile, let waited) {
            throw PersistError.locked(path: path, lockFile: lockFile, waited: waited)
        } catch .unopenable {
            return
        }
        AtomicFile.removeLeftovers(of: path)
    }

    /// Replaces the file with `text`.
    ///
    /// - Throws: ``PersistError/unwritableFile(path:reason:)``; the file is then as it was.
    func write(_ text: String) throws {
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw PersistError.unwritableFile(path: path, reason: error.reason)
        }
        identity = Identity(path)
    }

    /// Ends a write transaction: another process may write now.
    func unlock() {
        lock?.release()
        lock = nil
    }

    /// Which file a path names, and when it last changed: a replaced file differs in one.
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = status.st_mtim
        }

        static func == (lhs: Identity, rhs: Identity) -> Bool {
            (lhs.device, lhs.inode, lhs.size, lhs.modified.tv_sec, lhs.modified.tv_nsec)
                == (rhs.device, rhs.inode, rhs.size, rhs.modified.tv_sec, rhs.modified.tv_nsec)
        }
    }
}
