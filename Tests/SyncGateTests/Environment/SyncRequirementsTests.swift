import SyncGate
import Testing

@Suite("Requirements against environment statuses", .timeLimit(.minutes(1)))
struct SyncRequirementsTests {
    /// A status in which every requirement holds.
    static let allMet = SyncEnvironmentStatus(
        connectivity: .connected(via: .wiredEthernet),
        power: PowerStatus(isLowPowerModeEnabled: false, isOnExternalPower: true, batteryLevel: 0.9),
        account: .available,
        isCloudDriveAvailable: true,
        storage: StorageStatus(path: "/", availableBytes: 8 << 30, capacityBytes: 64 << 30)
    )

    /// For each requirement: statuses that satisfy it and statuses that do not.
    static let table:
        [(requirement: SyncRequirements, satisfying: [SyncEnvironmentStatus], failing: [SyncEnvironmentStatus])] = [
            (
                .network,
                [
                    allMet,
                    with(allMet) {
                        $0.connectivity = .connected(via: .cellular, isExpensive: true, isConstrained: true)
                    },
                ],
                [with(allMet) { $0.connectivity = .disconnected }]
            ),
            (
                .unmetered,
                [
                    allMet, with(allMet) { $0.connectivity = .connected(via: .wifi, isConstrained: true) },
                    with(allMet) { $0.connectivity = .connected(via: .wifi, metered: .guessedUnmetered) },
                    with(allMet) { $0.connectivity = .connected(via: .wifi, metered: .unknown) },
                ],
                [
                    with(allMet) { $0.connectivity = .connected(via: .cellular, isExpensive: true) },
                    with(allMet) { $0.connectivity = .connected(via: .wifi, metered: .guessedMetered) },
                    with(allMet) { $0.connectivity = .disconnected },
                    with(allMet) {
                        $0.connectivity = ConnectivityStatus(
                            isConnected: false,
                            interface: .none,
                            isExpensive: false,
                            isConstrained: false
                        )
                    },
                ]
            ),
            (
                .unmeteredConfirmed,
                [
                    allMet,
                    with(allMet) { $0.connectivity = .connected(via: .wifi, metered: .confirmedUnmetered) },
                    with(allMet) { $0.connectivity = .connected(via: .cellular, metered: .confirmedUnmetered) },
                ],
                [
                    with(allMet) { $0.connectivity = .connected(via: .wifi, metered: .guessedUnmetered) },
                    with(allMet) { $0.connectivity = .connected(via: .wifi, metered: .unknown) },
                    with(allMet) { $0.connectivity = .connected(via: .cellular, metered: .guessedMetered) },
                    with(allMet) { $0.connectivity = .connected(via: .cellular, isExpensive: true) },
                    with(allMet) { $0.connectivity = .disconnected },
                    with(allMet) {
                        $0.connectivity = ConnectivityStatus(
                            isConnected: false, interface: .wifi, metered: .confirmedUnmetered, isConstrained: false)
                    },
                ]
            ),
            (
                .unconstrained,
                [allMet, with(allMet) { $0.connectivity = .connected(via: .cellular, isExpensive: true) }],
                [
                    with(allMet) { $0.connectivity = .connected(via: .wifi, isConstrained: true) },
                    with(allMet) { $0.connectivity = .disconnected },
                ]
            ),
            (
                .validatedInternet,
                [
                    allMet,
                    with(allMet) { $0.connectivity = .connected(via: .wifi, reachability: .internet) },
                    with(allMet) {
                        $0.connectivity = ConnectivityStatus(
                            isConnected: true, interface: .wifi, isExpensive: true, isConstrained: true)
                    },
                ],
                [
                    with(allMet) { $0.connectivity = .connected(via: .wifi, reachability: .captivePortal) },
                    with(allMet) { $0.connectivity = .connected(via: .wifi, reachability: .limited) },
                    with(allMet) { $0.connectivity = .connected(via: .wiredEthernet, reachability: .local) },
                    with(allMet) { $0.connectivity = .disconnected },
                    with(allMet) {
                        $0.connectivity = ConnectivityStatus(
                            isConnected: false, interface: .none, isExpensive: false, isConstrained: false,
                            reachability: .internet)
                    },
                ]
            ),
            (
                .notLowPower,
                [allMet],
                [with(allMet) { $0.power.isLowPowerModeEnabled = true }]
            ),
            (
                .externalPower,
                [allMet, with(allMet) { $0.power = PowerStatus() }],
                [with(allMet) { $0.power.isOnExternalPower = false }]
            ),
            (
                .batteryNotLow,
                [
                    allMet,
                    with(allMet) { $0.power = PowerStatus(isOnExternalPower: false, batteryLevel: 0.21) },
                    with(allMet) { $0.power = PowerStatus(isOnExternalPower: true, batteryLevel: 0.05) },
                    with(allMet) { $0.power = PowerStatus(isOnExternalPower: false, batteryLevel: nil) },
                ],
                [
                    with(allMet) { $0.power = PowerStatus(isOnExternalPower: false, batteryLevel: 0.2) },
                    with(allMet) { $0.power = PowerStatus(isOnExternalPower: false, batteryLevel: 0) },
                ]
            ),
            (
                .accountReady,
                [allMet],
                [.noAccount, .restricted, .temporarilyUnavailable, .couldNotDetermine].map { account in
                    with(allMet) { $0.account = account }
                }
            ),
            (
                .cloudDrive,
                [allMet],
                [with(allMet) { $0.isCloudDriveAvailable = false }]
            ),
            (
                .storageNotLow,
                [
                    allMet,
                    // The default threshold: 5 % of a 1 GiB volume (51.2 MiB) is below the 500 MiB cap.
                    with(allMet) { $0.storage = StorageStatus(availableBytes: 53_687_092, capacityBytes: 1 << 30) },
                    // 5 % of 64 GiB is above the cap: 500 MiB free is enough.
                    with(allMet) { $0.storage = StorageStatus(availableBytes: 500 << 20, capacityBytes: 64 << 30) },
                    with(allMet) { $0.storage = StorageStatus(availableBytes: 10, thresholdBytes: 10) },
                    with(allMet) { $0.storage = .unknown },
                ],
                [
                    with(allMet) { $0.storage = StorageStatus(availableBytes: 53_687_090, capacityBytes: 1 << 30) },
                    with(allMet) {
                        $0.storage = StorageStatus(availableBytes: (500 << 20) - 1, capacityBytes: 64 << 30)
                    },
                    with(allMet) { $0.storage = StorageStatus(availableBytes: 9, thresholdBytes: 10) },
                    with(allMet) { $0.storage = StorageStatus(availableBytes: 0, capacityBytes: 1 << 30) },
                ]
            ),
            (
                .deviceIdle,
                [allMet, with(allMet) { $0.power = PowerStatus(isDeviceIdle: true) }],
                [with(allMet) { $0.power.isDeviceIdle = false }]
            ),
            (
                .notRoaming,
                [
                    allMet,
                    with(allMet) { $0.connectivity = .connected(via: .cellular, isExpensive: true) },
                    with(allMet) { $0.connectivity = .connected(via: .wifi, isExpensive: true) },
                ],
                [
                    with(allMet) { $0.connectivity = .connected(via: .cellular, isExpensive: true, isRoaming: true) },
                    with(allMet) { $0.connectivity = .disconnected },
                ]
            ),
            (
                .notUnderPressure,
                [
                    allMet,
                    // The figures are for reports: the observer's verdict is the flag.
                    with(allMet) {
                        $0.resources = ResourceStatus(pressure: PressureLevels(cpu: 99, io: 99, memory: 99))
                    },
                    with(allMet) { $0.resources = ResourceStatus(isHot: true) },
                ],
                [
                    with(allMet) { $0.resources = ResourceStatus(isUnderPressure: true) },
                    with(allMet) {
                        $0.resources = ResourceStatus(
                            isUnderPressure: true, pressure: PressureLevels(cpu: 1, io: 1, memory: 1))
                    },
                ]
            ),
            (
                .notHot,
                [
                    allMet,
                    with(allMet) { $0.resources = ResourceStatus(isUnderPressure: true) },
                    with(allMet) {
                        $0.resources = ResourceStatus(
                            thermal: ThermalReading(zone: "acpitz", celsius: 94.9, passiveCelsius: 95))
                    },
                ],
                [
                    with(allMet) { $0.resources = ResourceStatus(isHot: true) },
                    with(allMet) {
                        $0.resources = ResourceStatus(
                            isHot: true, thermal: ThermalReading(zone: "acpitz", celsius: 95, passiveCelsius: 95))
                    },
                ]
            ),
        ]

    @Test("each requirement holds exactly in the statuses that satisfy it", arguments: 0..<table.count)
    func requirementTable(row: Int) {
        let (requirement, satisfying, failing) = Self.table[row]
        for status in satisfying {
            #expect(status.satisfiedRequirements.contains(requirement), "\(requirement) should hold in \(status)")
            #expect(status.satisfies(requirement))
            #expect(status.unmetRequirements(requirement).isEmpty)
        }
        for status in failing {
            #expect(!status.satisfiedRequirements.contains(requirement), "\(requirement) should fail in \(status)")
            #expect(!status.satisfies(requirement))
            #expect(status.unmetRequirements(requirement) == requirement)
        }
    }

    @Test("the table covers every single requirement")
    func tableCoversEveryRequirement() {
        let covered = Self.table.reduce(into: SyncRequirements()) { $0.formUnion($1.requirement) }
        let all = SyncRequirements.members.reduce(into: SyncRequirements()) { $0.formUnion($1.requirement) }
        #expect(covered == all)
    }

    @Test(
        "a requirement whose part is not monitored reads as satisfied",
        arguments: SyncRequirements.members.map(\.requirement)
    )
    func unmonitoredPartIsTreatedAsMet(requirement: SyncRequirements) {
        let worst = SyncEnvironmentStatus(
            connectivity: .disconnected,
            power: PowerStatus(
                isLowPowerModeEnabled: true, isOnExternalPower: false, batteryLevel: 0.01, isDeviceIdle: false),
            account: .noAccount,
            isCloudDriveAvailable: false,
            monitoredParts: MonitoringOptions.all.subtracting(requirement.monitoredParts),
            storage: StorageStatus(availableBytes: 0, capacityBytes: 1 << 30),
            resources: ResourceStatus(isUnderPressure: true, isHot: true)
        )
        #expect(worst.satisfies(requirement))
        #expect(worst.requirementsTreatedAsMet.contains(requirement))
        let monitored = with(worst) { $0.monitoredParts = .all }
        #expect(!monitored.satisfies(requirement))
        #expect(monitored.requirementsTreatedAsMet.isEmpty)
    }

    @Test("readiness predicates equal their presets")
    func predicatesMatchPresets() {
        var statuses: [SyncEnvironmentStatus] = []
        for connectivity in [
            ConnectivityStatus.disconnected, .connected(via: .wifi), .connected(via: .cellular, isExpensive: true),
        ] {
            for lowPower in [false, true] {
                for account in [AccountStatus.available, .noAccount] {
                    for drive in [false, true] {
                        statuses.append(
                            SyncEnvironmentStatus(
                                connectivity: connectivity,
                                power: PowerStatus(isLowPowerModeEnabled: lowPower),
                                account: account,
                                isCloudDriveAvailable: drive
                            )
                        )
                    }
                }
            }
        }
        for status in statuses {
            let connected = status.connectivity.isConnected
            let lowPower = status.power.isLowPowerModeEnabled
            let ready = connected && status.account == .available && !lowPower
            #expect(status.isSyncReady == ready)
            #expect(status.isCloudDriveReady == (ready && status.isCloudDriveAvailable))
            #expect(
                status.isSuitableForLargeTransfer
                    == (connected && !status.connectivity.isExpensive && !status.connectivity.isConstrained)
            )
        }
    }

    @Test("sync events: only idle is not syncing", arguments: SyncEvent.allCases)
    func isSyncing(event: SyncEvent) {
        let status = SyncEnvironmentStatus(syncEvent: event)
        #expect(status.isSyncing == (event != .idle))
    }

    @Test("conditions must all hold")
    func conditions() {
        let status = SyncEnvironmentStatus(conditions: ["a", "b"], monitoredParts: [])
        #expect(status.satisfies([], conditions: ["a"]))
        #expect(status.satisfies([], conditions: ["a", "b"]))
        #expect(!status.satisfies([], conditions: ["a", "c"]))
        #expect(status.unmetConditions(["a", "c"]) == ["c"])
    }

    @Test("every requirement and preset has a spelling that parses back")
    func spellings() throws {
        for entry in SyncRequirements.members + SyncRequirements.presets {
            #expect(SyncRequirements(name: entry.name) == entry.requirement)
        }
        #expect(SyncRequirements(name: "EXTERNAL_POWER") == .externalPower)
        #expect(SyncRequirements(name: "wifi") == nil)
        #expect(SyncRequirements.syncReady.description == "[network, not-low-power, account-ready]")
        #expect(SyncRequirements(name: "validated_internet") == .validatedInternet)
        #expect(SyncRequirements.validatedInternet.monitoredParts == .network)
        #expect(
            SyncRequirements.decided(by: .network)
                == [.network, .unmetered, .unmeteredConfirmed, .unconstrained, .validatedInternet, .notRoaming])
        #expect(SyncRequirements.decided(by: .power) == [.notLowPower, .externalPower, .batteryNotLow, .deviceIdle])
        #expect(SyncRequirements.decided(by: .storage) == .storageNotLow)
        #expect(SyncRequirements.storageNotLow.monitoredParts == .storage)
        #expect(SyncRequirements.deviceIdle.monitoredParts == .power)
        #expect(SyncRequirements.notRoaming.monitoredParts == .network)
        #expect(SyncRequirements.unmeteredConfirmed.monitoredParts == .network)
        #expect(SyncRequirements(name: "UNMETERED_CONFIRMED") == .unmeteredConfirmed)
        #expect(SyncRequirements.decided(by: .resources) == [.notUnderPressure, .notHot])
        #expect(SyncRequirements(name: "not_under_pressure") == .notUnderPressure)
        #expect(SyncRequirements(name: "NOT-HOT") == .notHot)
        #expect(SyncRequirements.demandDriven == [.storageNotLow, .notUnderPressure, .notHot])
        #expect(SyncRequirements().description == "[]")
    }

    @Test(
        "the table of names has exactly one row for every bit that a part of the environment decides",
        arguments: 0..<64
    )
    func tableNamesEveryKnownBit(bit: Int) {
        let requirement = SyncRequirements(rawValue: 1 << bit)
        let rows = SyncRequirements.named.filter { $0.requirement == requirement }
        #expect(rows.count == (requirement.monitoredParts.isEmpty ? 0 : 1), "bit \(bit)")
        #expect(rows.allSatisfy { $0.kind == .requirement })
    }

    @Test("every row of the table round-trips: name, requirement, name", arguments: SyncRequirements.named)
    func tableRoundTrips(entry: SyncRequirementName) throws {
        let requirement = try #require(SyncRequirements(name: entry.name))
        #expect(requirement == entry.requirement)
        let sameValue = SyncRequirements.named.filter { $0.requirement == requirement }
        #expect(sameValue.map(\.name) == [entry.name], "two names for one value")
        switch entry.kind {
        case .requirement:
            #expect(requirement.names == [entry.name])
            #expect(requirement.description == "[\(entry.name)]")
            #expect(!entry.summary.isEmpty && entry.summary != entry.name)
        case .preset:
            #expect(entry.summary == requirement.names.joined(separator: ","))
            let parts = requirement.names.map { SyncRequirements(name: $0) ?? [] }
            #expect(parts.reduce(into: SyncRequirements()) { $0.formUnion($1) } == requirement)
        case .nothing:
            #expect(requirement.isEmpty)
            #expect(entry.name == "none")
        }
        #expect(entry.name == entry.name.lowercased() && !entry.name.contains("_") && !entry.name.contains(" "))
    }

    @Test("the table lists requirements, then presets, then none")
    func tableOrder() {
        let kinds = SyncRequirements.named.map(\.kind)
        #expect(kinds == kinds.sorted { rank($0) < rank($1) })
        #expect(SyncRequirements.members.map(\.name).first == "network")
        #expect(SyncRequirements.presets.map(\.name) == ["sync-ready", "cloud-drive-ready", "large-transfer"])
        #expect(SyncRequirements(name: "none") == [])
        func rank(_ kind: SyncRequirementName.Kind) -> Int {
            switch kind {
            case .requirement: 0
            case .preset: 1
            case .nothing: 2
            }
        }
    }

    @Test("presets")
    func presets() {
        #expect(SyncRequirements.syncReady == [.network, .accountReady, .notLowPower])
        #expect(SyncRequirements.cloudDriveReady == [.network, .accountReady, .notLowPower, .cloudDrive])
        #expect(SyncRequirements.largeTransfer == [.network, .unmetered, .unconstrained])
        #expect(MonitoringOptions.default == [.network, .power, .account, .cloudDrive, .storage, .resources])
        #expect(MonitoringOptions.basic == [.network, .account])
        #expect(MonitoringOptions.syncFocused == [.network, .power, .account, .syncEvent])
        #expect(
            MonitoringOptions.all.names
                == ["network", "power", "account", "sync-event", "cloud-drive", "storage", "resources"])
    }
}

/// Returns a copy of `value` changed by `change`.
func with<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
    var copy = value
    change(&copy)
    return copy
}
