// swift-tools-version:6.0
import PackageDescription

// A command-line app over rmap's live session: `RAILS_URL=http://127.0.0.1:3000 swift run live`.
let package = Package(
    name: "live",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "rmap", path: "../..")],
    targets: [
        .executableTarget(
            name: "live",
            dependencies: [
                .product(name: "RMap", package: "rmap"),
                .product(name: "RMapHTTP", package: "rmap"),
                .product(name: "RMapSQLite", package: "rmap"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
