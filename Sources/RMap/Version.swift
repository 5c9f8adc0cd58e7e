/// The version of rmap, as `rmap --version` prints it.
public enum RMapVersion {
    /// The version number, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
