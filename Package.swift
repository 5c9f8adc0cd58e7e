// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "rmap",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RMap", targets: ["RMap"]),
        .library(name: "RMapSQLite", targets: ["RMapSQLite"]),
        .library(name: "RMapPostgres", targets: ["RMapPostgres"]),
        .library(name: "RMapHTTP", targets: ["RMapHTTP"]),
        .executable(name: "rmap", targets: ["rmap"]),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "RMap", dependencies: ["CYAML"], swiftSettings: strict),
        .target(name: "RMapSQLite", dependencies: ["RMap", "CSQLite"], swiftSettings: strict),
        .target(name: "RMapPostgres", dependencies: ["RMap", "CLibPQ"], swiftSettings: strict),
        .target(name: "RMapHTTP", dependencies: ["RMap"], swiftSettings: strict),
        .executableTarget(
            name: "rmap",
            dependencies: ["RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RMapTests",
            dependencies: ["RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
