extension SyncRequirements {
    /// Every single requirement, described once, in the order of ``members``.
    ///
    /// The one table of requirements (see ``SyncRequirementDescriptor``): adding a requirement means adding
    /// its public constant and its descriptor here. A requirement about the network path also requires a
    /// connection, as `unmetered` does.
    public static let descriptors: [SyncRequirementDescriptor] = [
        SyncRequirementDescriptor(
            .network, name: "network", meaning: "a usable network path", decidedBy: .network,
            field: .init(key: "connected", sourceLabel: "connected") { .flag($0.connectivity.isConnected) },
            holds: { $0.connectivity.isConnected }),
        SyncRequirementDescriptor(
            .unmetered, name: "unmetered",
            meaning: "connected and not expensive (cellular, hotspot, metered); a guess counts",
            decidedBy: .network,
            field: .init(key: "expensive", sourceLabel: "expensive") { .flag($0.connectivity.isExpensive) },
            holds: { $0.connectivity.isConnected && !$0.connectivity.isExpensive }),
        SyncRequirementDescriptor(
            .unmeteredConfirmed, name: "unmetered-confirmed",
            meaning: "connected and confirmed not metered (a guess does not count)", decidedBy: .network,
            field: .init(key: "metered", sourceLabel: "metered") { .word($0.connectivity.metered.description) },
            holds: { $0.connectivity.isConnected && $0.connectivity.metered == .confirmedUnmetered }),
        SyncRequirementDescriptor(
            .unconstrained, name: "unconstrained", meaning: "connected and not in Low Data Mode", decidedBy: .network,
            field: .init(key: "constrained", sourceLabel: "constrained") { .flag($0.connectivity.isConstrained) },
            holds: { $0.connectivity.isConnected && !$0.connectivity.isConstrained }),
        SyncRequirementDescriptor(
            .validatedInternet, name: "validated-internet",
            meaning: "connected, no captive portal or local-only network (met when nothing checks)",
            decidedBy: .network,
            field: .init(key: "reachability", sourceLabel: "reachability") {
                .word($0.connectivity.reachability.description)
            },
            holds: { $0.connectivity.isConnected && $0.connectivity.isInternetValidatedOrUnknown }),
        SyncRequirementDescriptor(
            .notLowPower, name: "not-low-power", meaning: "Low Power Mode off", decidedBy: .power,
            field: .init(
                key: "lowPowerMode", label: "low power mode", sourceLabel: "low power mode", flagWords: ("on", "off")
            ) { .flag($0.power.isLowPowerModeEnabled) },
            holds: { !$0.power.isLowPowerModeEnabled }),
        SyncRequirementDescriptor(
            .externalPower, name: "external-power", meaning: "on external power (always, without a battery)",
            decidedBy: .power,
            field: .init(
                key: "externalPower", label: "power", sourceLabel: "external power",
                flagWords: ("external power", "on battery")
            ) { .flag($0.power.isOnExternalPower) },
            holds: { $0.power.isOnExternalPower }),
        SyncRequirementDescriptor(
            .batteryNotLow, name: "battery-not-low", meaning: "battery unknown, above 20 %, or on external power",
            decidedBy: .power,
            field: .init(key: "batteryLow", label: "battery", sourceLabel: "battery") { .flag($0.power.isBatteryLow) },
            holds: { !$0.power.isBatteryLow }),
        SyncRequirementDescriptor(
            .accountReady, name: "account-ready", meaning: "the sync account is available", decidedBy: .account,
            field: .init(key: "status", label: "account", sourceLabel: nil) { .word($0.account.description) },
            holds: { $0.account == .available }),
        SyncRequirementDescriptor(
            .cloudDrive, name: "cloud-drive", meaning: "the cloud drive is available", decidedBy: .cloudDrive,
            field: .init(
                key: "available", label: "cloud drive", sourceLabel: nil, flagWords: ("available", "unavailable")
            ) { .flag($0.isCloudDriveAvailable) },
            holds: { $0.isCloudDriveAvailable }),
        SyncRequirementDescriptor(
            .storageNotLow, name: "storage-not-low",
            meaning: "free space at least min(5 % of the volume, 500 MiB), or the set threshold",
            decidedBy: .storage, isDemandDriven: true,
            field: .init(key: "low", label: "storage", sourceLabel: "free space") { .flag($0.storage.isLow) },
            holds: { !$0.storage.isLow }),
        SyncRequirementDescriptor(
            .deviceIdle, name: "device-idle", meaning: "nobody uses the device (met when nothing reports idleness)",
            decidedBy: .power,
            field: .init(key: "deviceIdle", label: "device idle", sourceLabel: "device idle") {
                .flag($0.power.isDeviceIdle)
            },
            holds: { $0.power.isDeviceIdle }),
        SyncRequirementDescriptor(
            .notRoaming, name: "not-roaming", meaning: "connected, and not over a roaming mobile connection",
            decidedBy: .network,
            field: .init(key: "roaming", sourceLabel: "roaming") { .flag($0.connectivity.isRoaming) },
            holds: { $0.connectivity.isConnected && !$0.connectivity.isRoaming }),
        SyncRequirementDescriptor(
            .notUnderPressure, name: "not-under-pressure",
            meaning: "CPU, I/O and memory pressure below thresholds (met where unreadable)",
            decidedBy: .resources, isDemandDriven: true,
            field: .init(
                key: "underPressure", label: "pressure", sourceLabel: "pressure", flagWords: ("high", "low")
            ) { .flag($0.resources.isUnderPressure) },
            holds: { !$0.resources.isUnderPressure }),
        SyncRequirementDescriptor(
            .notHot, name: "not-hot", meaning: "the device is not hot (met where nothing reports heat)",
            decidedBy: .resources, isDemandDriven: true,
            field: .init(key: "hot", label: "heat", sourceLabel: "heat", flagWords: ("hot", "not hot")) {
                .flag($0.resources.isHot)
            },
            holds: { !$0.resources.isHot }),
    ]

    /// The descriptor of a single requirement of ``descriptors``; `nil` for a set of other than one known
    /// bit.
    public static func descriptor(of requirement: SyncRequirements) -> SyncRequirementDescriptor? {
        descriptors.first { $0.requirement == requirement }
    }
}
