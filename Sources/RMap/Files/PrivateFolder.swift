import Foundation

/// Where rmap keeps the files it writes for itself while it runs (an HTTP page on its way
/// to the mapper, a Singer tap's config and state): one folder per process,
/// `$TMPDIR/rmap-private-<pid>-XXXXXX`, mode 0700, made on first use, each file in it
/// mode 0600.
///
/// Every way out removes it: each file goes when its owner is done with it, and the
/// whole folder at exit (an `atexit` handler) and on `SIGINT` or `SIGTERM` (``remove()``,
/// which the command line calls before it dies by the signal). A `SIGKILL` leaves it
/// behind: ``removeAbandoned()`` deletes the folders of processes that no longer run,
/// which the command line does at every start. A folder is known to be alive by its
/// process id and by a lock its process holds on `.lock` inside it for its whole life
/// (the system drops the lock when the process ends, however it ends).
///
/// ```swift
/// let page = try PrivateFolder.newFile(prefix: "page-", suffix: ".json")   // 0600, empty
/// defer { PrivateFolder.removeItem(page) }
/// ```
public enum PrivateFolder {
    /// The prefix of every private folder's name.
    static let prefix = "rmap-private-"

    /// The folder once made, and the descriptor of its lock file.
    private static let state = Locked<(path: String, lock: Int32)?>(nil)

    /// Registers, once, the removal of the folder when the process exits.
    private static let removedAtExit: Void = { atexit { PrivateFolder.remove() } }()

    /// The process's private folder, made (0700, locked) on first use.
    ///
    /// - Throws: ``PrivateFolderError`` when it cannot be made.
    public static func path() throws(PrivateFolderError) -> String {
        try state.withLock { state throws(PrivateFolderError) -> String in
            if let state { return state.path }
            let made = try make()
            state = made
            removedAtExit
            return made.path
        }
    }

    /// A new empty file in the folder, mode 0600: `<prefix><random><suffix>`. Its owner removes it.
    ///
    /// - Throws: ``PrivateFolderError`` when the folder or the file cannot be made.
    public static func newFile(prefix: String, suffix: String = "") throws(PrivateFolderError) -> String {
        let folder = try path()
        while true {
            let candidate = "\(folder)/\(prefix)\(UUID().uuidString.lowercased())\(suffix)"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
                return candidate
            }
            guard errno == EEXIST else {
                throw .cannotCreate(path: candidate, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// A new empty folder inside the private one, mode 0700, for a group of files (a tap's).
    ///
    /// - Throws: ``PrivateFolderError`` when it cannot be made.
    public static func newFolder(prefix: String) throws(PrivateFolderError) -> String {
        try makeFolder(template: "\(try path())/\(prefix)XXXXXX")
    }

    /// Deletes a file or folder made here (nothing happens when it is gone already).
    public static func removeItem(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Deletes the process's private folder and everything in it, if it was made. Safe to call
    /// at any time before the process ends (a later use makes a new one).
    public static func remove() {
        state.withLock { state in
            guard let made = state else { return }
            try? FileManager.default.removeItem(atPath: made.path)
            close(made.lock)
            state = nil
        }
    }

    /// Deletes the private folders that processes which no longer run left in the temporary
    /// directory (a `SIGKILL` leaves its folder): those of this user whose process id is not a
    /// running process's and whose lock nobody holds.
    public static func removeAbandoned() {
        let temporary = temporaryDirectory()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let folder = "\(temporary)/\(name)"
            guard isAbandoned(folder, name: name) else { continue }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    // MARK: - Making and finding folders

    private static func make() throws(PrivateFolderError) -> (path: String, lock: Int32) {
        let folder = try makeFolder(template: "\(temporaryDirectory())/\(prefix)\(getpid())-XXXXXX")
        let lock = open("\(folder)/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let reason = String(cString: strerror(errno))
            if lock >= 0 { close(lock) }
            try? FileManager.default.removeItem(atPath: folder)
            throw .cannotCreate(path: "\(folder)/.lock", reason: reason)
        }
        return (folder, lock)
    }

    private static func makeFolder(template: String) throws(PrivateFolderError) -> String {
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else {
            throw .cannotCreate(path: template, reason: String(cString: strerror(errno)))
        }
        return String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The temporary directory (`TMPDIR`, else `/tmp`), without a trailing slash.
    private static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.path
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// True when `folder` is this user's private folder of a process that ended.
    private static func isAbandoned(_ folder: String, name: String) -> Bool {
        let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
        var status = stat()
        guard let pid = pid_t(digits), lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
            status.st_uid == getuid(), pid != getpid()
        else { return false }
        if kill(pid, 0) == 0 || errno == EPERM { return false }
        let lock = open("\(folder)/.lock", O_RDWR | O_CLOEXEC)
        guard lock >= 0 else { return true }
        defer { close(lock) }
        return flock(lock, LOCK_EX | LOCK_NB) == 0
    }
}

/// Why a private file or folder could not be made.
public enum PrivateFolderError: Error, Equatable, CustomStringConvertible {
    /// The file or folder at `path` could not be created (`reason`: the system's words).
    case cannotCreate(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot create the private temporary file \(path): \(reason)"
        }
    }
}
