// swift-tools-version: 6.0

import PackageDescription

let package = Package(
    name: "SyncGate",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "SyncGate", targets: ["SyncGate"]),
        .library(name: "SyncGateTesting", targets: ["SyncGateTesting"]),
        .executable(name: "syncgate", targets: ["syncgate"]),
    ],
    targets: [
        // The wire codecs (rtnetlink, D-Bus, kernel uevents): pure encoding and decoding on the standard
        // library alone, no Foundation and no system calls. SyncGate's Linux backends use them, and each
        // fuzz target under Fuzz/ compiles this folder with its entry point (Fuzz/run.sh).
        .target(name: "SyncGateWire"),
        // The platform-neutral library: values, requirements, streams, sources and environment, scheduler,
        // logging seam, support, the backend seams and the Apple seams. No backend of any platform.
        .target(name: "SyncGateCore"),
        // Durable jobs (journal, store, durable scheduler) and the background-task bridge.
        .target(name: "SyncGateDurable", dependencies: ["SyncGateCore"]),
        // The Linux backends (rtnetlink, sysfs, uevents, D-Bus) over the wire codecs.
        .target(name: "SyncGateLinux", dependencies: ["SyncGateCore", "SyncGateWire"]),
        // The Apple conformances to the seams (each file behind `#if canImport`).
        .target(name: "SyncGateApple", dependencies: ["SyncGateCore", "SyncGateDurable"]),
        // The quiet executors (Linux), on the runtime's experimental custom-executor interface.
        .target(name: "SyncGateExecutors", dependencies: ["SyncGateCore"]),
        // The product users import: re-exports the layers and picks the platform's sources.
        .target(
            name: "SyncGate",
            dependencies: ["SyncGateCore", "SyncGateDurable", "SyncGateLinux", "SyncGateApple", "SyncGateExecutors"]
        ),
        .target(name: "SyncGateTesting", dependencies: ["SyncGateCore"]),
        .executableTarget(
            name: "WaitUntilReadyExample",
            dependencies: ["SyncGate", "SyncGateTesting"],
            path: "Examples/WaitUntilReady"
        ),
        .executableTarget(
            name: "SchedulerTourExample",
            dependencies: ["SyncGate", "SyncGateTesting"],
            path: "Examples/SchedulerTour"
        ),
        // What the test targets share that is about running tests, not about SyncGate (never a product).
        .target(name: "SyncGateTestSupport", dependencies: ["SyncGateCore"], path: "Tests/SyncGateTestSupport"),
        .testTarget(
            name: "SyncGateTests",
            dependencies: [
                "SyncGate", "SyncGateCore", "SyncGateDurable", "SyncGateLinux", "SyncGateApple", "SyncGateExecutors",
                "SyncGateTesting", "SyncGateTestSupport",
            ],
            // Journal files written by released format versions, read through #filePath.
            exclude: ["Durable/Golden"]),
        // Runs the Linux ConnectivityObserver inside a network namespace for SyncGateLinuxTests.
        .executableTarget(
            name: "syncgate-netns-probe", dependencies: ["SyncGate", "SyncGateWire"],
            path: "Tools/NetnsProbe"),
        .testTarget(
            name: "SyncGateLinuxTests",
            dependencies: [
                "SyncGate", "SyncGateCore", "SyncGateDurable", "SyncGateLinux", "SyncGateWire", "SyncGateTesting",
                "SyncGateTestSupport",
            ]),
        // The command-line tool: a thin main over SyncGateCLI, which holds everything tests can import.
        .target(name: "SyncGateCLI", dependencies: ["SyncGate"]),
        .executableTarget(name: "syncgate", dependencies: ["SyncGateCLI", "SyncGate"]),
        .testTarget(
            name: "SyncGateCLITests",
            dependencies: ["SyncGateCLI", "SyncGate", "SyncGateTesting", "SyncGateTestSupport"]),
        // Restores, submits and runs durable jobs while SyncGateLinuxTests kills it (the crash test).
        .executableTarget(
            name: "syncgate-durable-probe", dependencies: ["SyncGate", "SyncGateTesting"],
            path: "Tools/DurableCrashProbe"),
        // Debian's libsqlite3, the durable benchmark's anchor: only DurableBenchmarks depends on it.
        .systemLibrary(name: "CSQLite", path: "Benchmarks/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "DurableBenchmarks", dependencies: ["SyncGate", "CSQLite"],
            path: "Benchmarks/DurableBenchmarks"),
        // The dispatch-latency harness: `swift run -c release SyncGateBenchmarks [--quick] [--json P] [--svg P]`.
        .executableTarget(
            name: "SyncGateBenchmarks",
            dependencies: ["SyncGate", "SyncGateCore", "SyncGateWire", "SyncGateTesting"],
            path: "Benchmarks/SyncGateBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
