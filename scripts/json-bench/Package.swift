// swift-tools-version:6.0
// A measuring package, not part of rmap: compares JSON parsers producing JSONValue trees.
import Foundation
import PackageDescription

/// The rmap checkout two levels up; SwiftPM names a path dependency after its folder.
let rmap = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let package = Package(
    name: "json-bench",
    dependencies: [.package(path: rmap.path)],
    targets: [
        .systemLibrary(name: "CYAJL", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
        .executableTarget(
            name: "bench", dependencies: ["CYAJL", .product(name: "RMap", package: rmap.lastPathComponent)]),
    ],
    swiftLanguageModes: [.v6]
)
