public enum RMapVersion { public static let current = "0.1.0" }
