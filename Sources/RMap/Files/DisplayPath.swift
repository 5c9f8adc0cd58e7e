import Foundation

/// Paths as rmap opens and shows them: as written, lexically normalised, and
/// relative to the current directory when a relative path leaves it and comes
/// back (`../rmap/samples` in `/work/rmap` is `samples`).
///
/// A source path `../samples/people.json` in `mappings/crm.yml` is
/// `samples/people.json`, not `mappings/../samples/people.json`:
///
/// ```swift
/// DisplayPath.normalize("mappings/../samples/people.json")   // "samples/people.json"
/// DisplayPath.normalize("./../rmap/samples/x.json", currentDirectory: "/work/rmap")   // "samples/x.json"
/// DisplayPath.normalize("/work/rmap/./crm.sqlite", currentDirectory: "/work/rmap")    // "/work/rmap/crm.sqlite"
/// DisplayPath.normalize("/data/crm.sqlite", currentDirectory: "/work/rmap")           // "/data/crm.sqlite"
/// ```
///
/// The normalisation is lexical: `a/..` is removed without asking whether `a`
/// is a symbolic link.
public enum DisplayPath {
    /// `path` without `.` segments, `a/..` pairs and repeated slashes; an absolute path stays
    /// absolute, a relative one that starts with `..` is made relative to `currentDirectory`
    /// when it leads back under it.
    ///
    /// - Parameters:
    ///   - path: a path as written or joined (`mappings/../samples/people.json`).
    ///   - currentDirectory: the absolute directory relative paths start from (default: the process's).
    public static func normalize(_ path: String, currentDirectory: String? = nil) -> String {
        guard !path.isEmpty else { return path }
        let segments = normalizedSegments(path)
        let isAbsolute = path.hasPrefix("/")
        guard !isAbsolute, segments.first == ".." else { return joined(segments, absolute: isAbsolute) }
        let directory = normalizedSegments(currentDirectory ?? FileManager.default.currentDirectoryPath)
        let absolute = normalizedSegments(joined(directory + segments, absolute: true))
        guard absolute.starts(with: directory) else { return joined(segments, absolute: false) }
        return joined(Array(absolute.dropFirst(directory.count)), absolute: false)
    }

    /// The segments of `path` with `.` and empty segments dropped and each `name/..` pair removed;
    /// a relative path keeps the `..` it starts with, an absolute path drops `..` at the root.
    private static func normalizedSegments(_ path: String) -> [Substring] {
        var segments: [Substring] = []
        for segment in path.split(separator: "/") where segment != "." {
            if segment != ".." {
                segments.append(segment)
            } else if let last = segments.last, last != ".." {
                segments.removeLast()
            } else if !path.hasPrefix("/") {
                segments.append(segment)
            }
        }
        return segments
    }

    private static func joined(_ segments: [Substring], absolute: Bool) -> String {
        let text = segments.joined(separator: "/")
        if absolute { return "/" + text }
        return text.isEmpty ? "." : text
    }
}
