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
        .library(name: "RMapAuthoring", targets: ["RMapAuthoring"]),
        .library(name: "RMapCommandLine", targets: ["RMapCommandLine"]),
        .library(name: "RMapConformance", targets: ["RMapConformance"]),
        .executable(name: "rmap", targets: ["rmap"]),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // No pkgConfig: simdjson.pc only adds -DSIMDJSON_THREADS_ENABLED, a flag SwiftPM
        // refuses with a warning and that the On Demand API used here does not need.
        .systemLibrary(name: "CSimdJSON", providers: [.apt(["libsimdjson-dev"])]),
        // glibc's posix_spawn with a working directory and no inherited descriptors (ChildProgram).
        .systemLibrary(name: "CSpawn", providers: [.apt(["libc6-dev"])]),
        .target(name: "RMapJSONC", dependencies: ["CSimdJSON"], linkerSettings: [.linkedLibrary("simdjson")]),
        .target(name: "RMap", dependencies: ["CYAML", "CSpawn", "RMapJSONC"], swiftSettings: strict),
        .target(name: "RMapSQLite", dependencies: ["RMap", "CSQLite"], swiftSettings: strict),
        .target(name: "RMapPostgres", dependencies: ["RMap", "CLibPQ"], swiftSettings: strict),
        .target(name: "RMapHTTP", dependencies: ["RMap", "CCurl"], swiftSettings: strict),
        // Tools that write and describe mapping files: `rmap init`'s inference from sample
        // payloads (Init/) and `rmap inspect`'s text, DOT and Mermaid (Inspect/). A run never needs them.
        .target(name: "RMapAuthoring", dependencies: ["RMap"], swiftSettings: strict),
        // The command line as a library (`RMapCommandLine.main(registry:)`, for programs that
        // add plugins of their own); the `rmap` executable is its one-line `main.swift`.
        .target(
            name: "RMapCommandLine",
            dependencies: ["RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP", "RMapAuthoring"],
            path: "Sources/rmap",
            swiftSettings: strict
        ),
        // The released command links jemalloc, whose per-thread caches free what another thread
        // allocated without glibc's arena locks (docs/performance.md "The allocator"); debug and
        // sanitizer builds keep the C library's malloc, and programs importing RMap choose their own.
        // Its options (RMapAllocator: freed pages go back to the system after 200 ms).
        .target(name: "RMapAllocator"),
        .executableTarget(
            name: "rmap", dependencies: ["RMapCommandLine", "RMapAllocator"], path: "Sources/rmap-main",
            swiftSettings: strict,
            linkerSettings: [.linkedLibrary("jemalloc", .when(configuration: .release))]),
        // The rules every Source and Transformer follows, checkable by a plugin package's tests.
        .target(name: "RMapConformance", dependencies: ["RMap"], swiftSettings: strict),
        // The Swift examples of README.md and docs/, compiled into one program by the DocExamples
        // plugin and run by Tests/RMapTests/Docs.
        .executableTarget(name: "doc-extract", path: "Tools/doc-extract"),
        .plugin(name: "DocExamples", capability: .buildTool(), dependencies: ["doc-extract"]),
        .executableTarget(
            name: "rmap-doc-examples",
            dependencies: ["RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP", "RMapCommandLine", "RMapConformance"],
            path: "Tests/DocExamples",
            swiftSettings: strict,
            plugins: ["DocExamples"]
        ),
        .testTarget(
            name: "RMapTests",
            dependencies: [
                "RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP", "RMapAuthoring", "RMapConformance", "RMapCommandLine",
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

// libFuzzer harnesses (`Fuzz/<Name>/`), built only by `scripts/fuzz`, which sets
// RMAP_FUZZ=1 and the sanitizer flags: without `-sanitize=fuzzer` they have no `main`.
if Context.environment["RMAP_FUZZ"] == "1" {
    // The doc examples' tool cannot link beside libFuzzer's `main`; the fuzz build needs none of them.
    package.targets.removeAll { ["doc-extract", "DocExamples", "rmap-doc-examples"].contains($0.name) }
    let libraries: [Target.Dependency] = ["RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP", "RMapAuthoring"]
    let fuzzers: [(name: String, exclude: [String])] = [
        ("MappingLoader", []),
        ("RecordMapping", []),
        ("HTTPAnswer", []),
        // The command line's sources (Sources/rmap, the RMapCommandLine library), linked in
        // (Fuzz/Arguments/rmap) for the internal types the harness drives.
        ("Arguments", []),
    ]
    package.targets.append(
        .target(name: "FuzzSupport", dependencies: libraries, path: "Fuzz/Support", swiftSettings: strict))
    package.targets += fuzzers.map { fuzzer in
        .executableTarget(
            name: "Fuzz\(fuzzer.name)", dependencies: libraries + ["FuzzSupport"], path: "Fuzz/\(fuzzer.name)",
            exclude: ["corpus", "dictionary"] + fuzzer.exclude,
            swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]
        )
    }
}
