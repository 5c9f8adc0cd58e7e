import Foundation

/// The venv holding the real Singer taps from PyPI (`scripts/singer-taps`:
/// singer-sdk, tap-csv-folder, and `tap-rails`, the SDK tap in
/// `Tests/Fixtures/singer/tap-rails`).
///
/// The test command passes it in `RMAP_SINGER_VENV`; otherwise the first test
/// that needs it runs the script once per process (which reuses a venv already built).
enum SingerTaps {
    /// `Tests/Fixtures/singer`.
    static let fixtures = TestServers.repositoryRoot.appendingPathComponent("Tests/Fixtures/singer")

    /// The venv's `bin` folder, where the taps are.
    static func bin() throws -> String {
        try venv.get().appendingPathComponent("bin").path
    }

    /// `PATH` with the taps' folder first, for `rmap` to find them as a shell would.
    static func path() throws -> String {
        try bin() + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    private static let venv = TestServers.locate(
        variable: "RMAP_SINGER_VENV", script: "singer-taps", key: "SINGER_VENV")
}
