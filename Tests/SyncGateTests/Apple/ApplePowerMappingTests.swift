import Testing

@testable import SyncGateCore

/// The power source on Apple platforms, above its `ProcessInfo` / `UIDevice` / IOKit seam.
@Suite("Apple power mapping", .timeLimit(.minutes(1)))
struct ApplePowerMappingTests {
    /// (state, level, external power, level read, `.externalPower` met, `.batteryNotLow` met)
    static let deviceTable: [(BatteryStateMirror, Float, Bool, Double?, Bool, Bool)] = [
        (.unplugged, 0.10, false, 0.10, false, false),  // a phone at 10 % on battery blocks both
        (.unplugged, 0.20, false, 0.20, false, false),
        (.unplugged, 0.21, false, 0.21, false, true),
        (.unplugged, -1, false, nil, false, true),
        (.charging, 0.10, true, 0.10, true, true),
        (.full, 1.0, true, 1.0, true, true),
        (.unknown, -1, true, nil, true, true),  // monitoring off or the simulator: never blocks
        (.unknown, 0.5, true, nil, true, true),
    ]

    @Test("every UIDevice.BatteryState", arguments: deviceTable)
    func everyBatteryState(
        state: BatteryStateMirror, level: Float, external: Bool, read: Double?, externalMet: Bool,
        notLowMet: Bool
    ) throws {
        let status = ApplePowerFacts(isLowPowerModeEnabled: false, battery: .device(state: state, level: level))
            .powerStatus
        #expect(status.isOnExternalPower == external)
        if let read {
            #expect(abs(try #require(status.batteryLevel) - read) < 0.0001)
        } else {
            #expect(status.batteryLevel == nil)
        }
        let environment = SyncEnvironment(power: StatusFeed(status))
        #expect(environment.status.satisfies(.externalPower) == externalMet)
        #expect(environment.status.satisfies(.batteryNotLow) == notLowMet)
    }

    @Test("the device table covers every case") func tablesAreComplete() {
        #expect(Set(Self.deviceTable.map(\.0)) == Set(BatteryStateMirror.allCases))
        #expect(Set(Self.sourceTypeTable.map(\.1)) == Set(PowerSourceTypeMirror.allCases))
    }

    static let sourceTypeTable: [(String?, PowerSourceTypeMirror)] = [
        ("AC Power", .acPower), ("Battery Power", .batteryPower), ("UPS Power", .upsPower), ("Other", .unknown),
        (nil, .unknown),
    ]

    @Test("every providing power source type of IOKit", arguments: sourceTypeTable)
    func everySourceType(value: String?, mirror: PowerSourceTypeMirror) {
        #expect(PowerSourceTypeMirror(ioKitValue: value) == mirror)
    }

    /// (providing, batteries, external power, level)
    static let macTable: [(PowerSourceTypeMirror, [ApplePowerFacts.Capacity], Bool, Double?)] = [
        (.acPower, [], true, nil),  // a desktop Mac
        (.acPower, [.init(current: 50, maximum: 100)], true, 0.5),
        (.batteryPower, [.init(current: 10, maximum: 100)], false, 0.1),
        (.batteryPower, [.init(current: 30, maximum: 100), .init(current: 10, maximum: 100)], false, 0.2),
        (.upsPower, [], false, nil),
        (.unknown, [.init(current: 5, maximum: 0)], true, nil),
    ]

    @Test("IOKit power sources on macOS", arguments: macTable)
    func macPowerSources(
        providing: PowerSourceTypeMirror, batteries: [ApplePowerFacts.Capacity], external: Bool, level: Double?
    ) {
        let status = ApplePowerFacts(
            isLowPowerModeEnabled: true, battery: .powerSources(providing: providing, batteries: batteries)
        ).powerStatus
        #expect(status == PowerStatus(isLowPowerModeEnabled: true, isOnExternalPower: external, batteryLevel: level))
    }

    @Test("no battery source (watchOS, tvOS): only Low Power Mode counts")
    func noBatterySource() {
        #expect(
            ApplePowerFacts(isLowPowerModeEnabled: true, battery: .none).powerStatus
                == PowerStatus(isLowPowerModeEnabled: true))
    }

    @Test("battery monitoring is on only while the follower observes, and changes are published")
    func monitoringOnlyWhileObserved() {
        let reader = FakePowerReader(
            ApplePowerFacts(isLowPowerModeEnabled: false, battery: .device(state: .charging, level: 0.5)))
        let follower = ApplePowerFollower(reader: reader)
        #expect(reader.monitoring.withLock { $0 })
        #expect(follower.broadcast.value == PowerStatus(isOnExternalPower: true, batteryLevel: 0.5))
        reader.change(to: ApplePowerFacts(isLowPowerModeEnabled: true, battery: .device(state: .unplugged, level: 0.1)))
        #expect(follower.broadcast.value.isBatteryLow)
        #expect(follower.broadcast.value.isLowPowerModeEnabled)
        #expect(follower.provenance.batteryLevel == .uiDevice)
        follower.stop()
        follower.stop()
        #expect(!reader.monitoring.withLock { $0 })
        #expect(reader.starts.withLock { $0 } == 1)
        #expect(reader.stops.withLock { $0 } == 1)
    }
}
