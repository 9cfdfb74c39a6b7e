// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cvlayout",
    products: [
        .executable(name: "cvlayout", targets: ["cvlayout"]),
        .library(name: "LayoutCore", targets: ["LayoutCore"]),
    ],
    targets: [
        // Value types, engines, queries, the heart path. No I/O.
        .target(name: "LayoutCore"),
        // Dataset decoding and the JSON, CSV and SVG writers.
        .target(name: "LayoutFormats", dependencies: ["LayoutCore"]),
        // Flag parsing, engine registry, error mapping; testable entry point.
        .target(name: "CVLayoutCLI", dependencies: ["LayoutCore", "LayoutFormats"]),
        .executableTarget(name: "cvlayout", dependencies: ["CVLayoutCLI"]),
        // `make bench`'s rect-query benchmark.
        .executableTarget(name: "cvlayout-bench", dependencies: ["LayoutCore"]),
        .testTarget(name: "LayoutCoreTests", dependencies: ["LayoutCore"]),
        .testTarget(name: "LayoutFormatsTests", dependencies: ["LayoutFormats"]),
        .testTarget(name: "CVLayoutCLITests", dependencies: ["CVLayoutCLI", "LayoutFormats", "LayoutCore"]),
    ]
)
