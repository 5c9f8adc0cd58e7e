// swift-tools-version:6.0
import Foundation
import PackageDescription

// A plugin package: a source, a stage and a transformer of its own, and an `rmap`
// binary that has them (`rmap-example`). It builds on the rmap checkout two folders
// up; a package elsewhere would write `.package(url: "https://.../rmap.git", from: ...)`.
// A package found by path is known by its folder's name.
let rmap = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rmapPackage = rmap.lastPathComponent.lowercased()

let package = Package(
    name: "rmap-plugin-example",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "PluginExample", dependencies: [.product(name: "RMap", package: rmapPackage)]),
        .executableTarget(
            name: "rmap-example",
            dependencies: ["PluginExample", .product(name: "RMapCommandLine", package: rmapPackage)]
        ),
        .testTarget(
            name: "PluginExampleTests",
            dependencies: [
                "PluginExample", .product(name: "RMap", package: rmapPackage),
                .product(name: "RMapCommandLine", package: rmapPackage),
                .product(name: "RMapConformance", package: rmapPackage),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
