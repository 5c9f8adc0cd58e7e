import Foundation

/// Finds the file an `exec` command's first word names, the way a shell
/// does, so that rmap runs the program itself: a word with a `/` is a path
/// (relative to the working folder), any other word is looked up in the
/// folders of `PATH`. No word is ever read as an option or a variable
/// assignment (as `/usr/bin/env` would read `-S` or `X=1`).
enum ProgramPath {
    /// The executable file for `word`, or `nil` when there is none.
    ///
    /// - Parameters:
    ///   - word: the command's first word.
    ///   - searchPath: the `PATH` of the program's environment (an empty entry is the working folder).
    ///   - directory: the folder the program runs in.
    static func resolve(_ word: String, searchPath: String?, directory: String) -> String? {
        guard !word.isEmpty else { return nil }
        if word.contains("/") {
            let path = word.hasPrefix("/") ? word : "\(directory)/\(word)"
            return isExecutable(path) ? path : nil
        }
        let folders = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(
            separator: ":", omittingEmptySubsequences: false)
        for folder in folders {
            let base = folder.isEmpty ? directory : folder.hasPrefix("/") ? String(folder) : "\(directory)/\(folder)"
            let path = "\(base)/\(word)"
            if isExecutable(path) { return path }
        }
        return nil
    }

    private static func isExecutable(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && access(path, X_OK) == 0
    }
}
