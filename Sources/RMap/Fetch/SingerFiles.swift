import Foundation

/// The files a tap reads that rmap writes: its `--config` (the source's `config:`
/// as JSON) and its `--state`, in a folder of their own (mode 0700, files 0600)
/// inside the process's ``PrivateFolder``, which ``remove()`` deletes when the tap
/// is done (and the private folder's own removal at exit or on a signal, if not).
struct SingerFiles {
    /// The tap's folder.
    let folder: String

    /// Creates the tap's folder.
    ///
    /// - Throws: ``FetchError`` naming `origin` when it cannot be created.
    init(origin: String) throws(FetchError) {
        do {
            folder = try PrivateFolder.newFolder(prefix: "singer-")
        } catch {
            throw FetchError(origin: origin, message: "cannot create a private folder for the tap's files: \(error)")
        }
    }

    /// Writes `value` as JSON to `name` in the folder, readable by this user only; returns its path.
    ///
    /// - Throws: ``FetchError`` naming `origin` when the file cannot be written.
    func write(_ value: JSONValue, named name: String, origin: String) throws(FetchError) -> String {
        let path = "\(folder)/\(name)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw FetchError(
                origin: origin, message: "cannot write the tap's \(name): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        handle.write(Data(JSONWriter.serialize(value).utf8))
        return path
    }

    /// Deletes the folder and its files.
    func remove() {
        PrivateFolder.removeItem(folder)
    }
}
