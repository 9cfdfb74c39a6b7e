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
        // The speed machinery: output buffers, number text, the parallel pipeline, huge pages, cores
        // (its surface: Sources/FastText/FastText.swift). LayoutCore and the command line never see it.
        .target(name: "FastText", dependencies: ["LayoutCore"]),
        // Reading datasets and layout descriptions (JSON), with their error paths.
        .target(name: "LayoutDatasets", dependencies: ["LayoutCore", "FastText"]),
        // Writing layouts: JSON, CSV, SVG, scroll and transition pictures.
        .target(name: "LayoutWriters", dependencies: ["LayoutCore", "FastText"]),
        // Reading written layouts back and comparing them (`cvlayout diff`).
        .target(name: "LayoutComparison", dependencies: ["LayoutCore", "FastText", "LayoutDatasets", "LayoutWriters"]),
        // Flag parsing, engine registry, error mapping; testable entry point.
        .target(name: "CVLayoutCLI",
                dependencies: ["LayoutCore", "LayoutDatasets", "LayoutWriters", "LayoutComparison"]),
        .executableTarget(name: "cvlayout", dependencies: ["CVLayoutCLI"]),
        // `make bench`'s rect-query benchmark.
        .executableTarget(name: "cvlayout-bench", dependencies: ["LayoutCore"]),
        .testTarget(name: "LayoutCoreTests", dependencies: ["LayoutCore"]),
        .testTarget(name: "LayoutFormatsTests",
                    dependencies: ["LayoutCore", "FastText", "LayoutDatasets", "LayoutWriters", "LayoutComparison"]),
        .testTarget(name: "CVLayoutCLITests",
                    dependencies: ["CVLayoutCLI", "LayoutCore", "FastText", "LayoutDatasets", "LayoutWriters", "LayoutComparison"]),
    ]
)
