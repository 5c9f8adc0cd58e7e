// swift-tools-version:6.0
import Foundation
import PackageDescription

// A command-line app over rmap's live session (docs/live.md):
//   RAILS_URL=http://127.0.0.1:3000 swift run --package-path examples/live
// rmap is the repository two levels up; SwiftPM names a path dependency after its folder.
let rmap = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
let rmapPackage = rmap.lastPathComponent.lowercased()

let package = Package(
    name: "live-example",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "live",
            dependencies: [
                .product(name: "RMap", package: rmapPackage),
                .product(name: "RMapHTTP", package: rmapPackage),
                .product(name: "RMapSQLite", package: rmapPackage),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
