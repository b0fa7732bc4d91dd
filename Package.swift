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
        .target(name: "SyncGate", dependencies: ["SyncGateWire"]),
        .target(name: "SyncGateTesting", dependencies: ["SyncGate"]),
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
        .testTarget(
            name: "SyncGateTests", dependencies: ["SyncGate", "SyncGateTesting"],
            // Journal files written by released format versions, read through #filePath.
            exclude: ["Durable/Golden"]),
        // Runs the Linux ConnectivityObserver inside a network namespace for SyncGateLinuxTests.
        .executableTarget(
            name: "syncgate-netns-probe", dependencies: ["SyncGate", "SyncGateWire"], path: "Tools/NetnsProbe"),
        .testTarget(name: "SyncGateLinuxTests", dependencies: ["SyncGate", "SyncGateWire", "SyncGateTesting"]),
        // The command-line tool: a thin main over SyncGateCLI, which holds everything tests can import.
        .target(name: "SyncGateCLI", dependencies: ["SyncGate"]),
        .executableTarget(name: "syncgate", dependencies: ["SyncGateCLI", "SyncGate"]),
        .testTarget(name: "SyncGateCLITests", dependencies: ["SyncGateCLI", "SyncGate", "SyncGateTesting"]),
        // Restores, submits and runs durable jobs while SyncGateLinuxTests kills it (the crash test).
        .executableTarget(
            name: "syncgate-durable-probe", dependencies: ["SyncGate", "SyncGateTesting"],
            path: "Tools/DurableCrashProbe"),
        .executableTarget(
            name: "DurableBenchmarks", dependencies: ["SyncGate"], path: "Benchmarks/DurableBenchmarks"),
        // The dispatch-latency harness: `swift run -c release SyncGateBenchmarks [--quick] [--json P] [--svg P]`.
        .executableTarget(
            name: "SyncGateBenchmarks",
            dependencies: ["SyncGate", "SyncGateWire", "SyncGateTesting"],
            path: "Benchmarks/SyncGateBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
