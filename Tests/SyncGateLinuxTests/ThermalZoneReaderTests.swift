#if os(Linux)
    import SyncGate
    import SyncGateLinux
    import Testing

    @Suite("Thermal zones and the heat rule", .timeLimit(.minutes(1)))
    struct ThermalZoneReaderTests {
        typealias Zone = ThermalZoneReader.Zone

        /// Zones, and the zone that decides heat with whether it is hot (`nil`: no zone decides).
        static let rule: [(name: String, zones: [Zone], expected: (zone: String, hot: Bool)?)] = [
            ("no zones", [], nil),
            ("no passive trip point", [Zone(name: "acpitz", milliCelsius: 99_000, passiveMilliCelsius: nil)], nil),
            ("no temperature", [Zone(name: "acpitz", milliCelsius: nil, passiveMilliCelsius: 95_000)], nil),
            ("below", [Zone(name: "acpitz", milliCelsius: 94_999, passiveMilliCelsius: 95_000)], ("acpitz", false)),
            ("at", [Zone(name: "acpitz", milliCelsius: 95_000, passiveMilliCelsius: 95_000)], ("acpitz", true)),
            (
                "the zone nearest its trip decides, not the hottest",
                [
                    Zone(name: "x86_pkg_temp", milliCelsius: 80_000, passiveMilliCelsius: 100_000),
                    Zone(name: "skin", milliCelsius: 46_000, passiveMilliCelsius: 45_000),
                    Zone(name: "gpu", milliCelsius: 90_000, passiveMilliCelsius: nil),
                ],
                ("skin", true)
            ),
        ]

        @Test("the rule", arguments: 0..<rule.count)
        func decidingZone(row: Int) {
            let (name, zones, expected) = Self.rule[row]
            let reading = ThermalZoneReader.decidingZone(zones)
            #expect(reading?.zone == expected?.zone, "\(name)")
            #expect(reading?.isHot == expected?.hot, "\(name)")
        }

        @Test("fixtures: no zones, zones without passive trips, below and above a passive trip")
        func fixtures() throws {
            let none = try ResourceFixture()
            #expect(ThermalZoneReader.readZones(root: none.thermalRoot).isEmpty)
            #expect(ThermalZoneReader.readZones(root: none.root + "/missing").isEmpty)

            let noPassive = try ResourceFixture(zones: [
                .init(type: "acpitz", milliCelsius: 99_000, trips: [("critical", 105_000), ("hot", 100_000)])
            ])
            let zones = ThermalZoneReader.readZones(root: noPassive.thermalRoot)
            #expect(zones == [Zone(name: "acpitz", milliCelsius: 99_000, passiveMilliCelsius: nil)])
            #expect(ThermalZoneReader.decidingZone(zones) == nil)

            let fixture = try ResourceFixture(zones: [
                .init(type: "acpitz", milliCelsius: 50_000, trips: [("critical", 105_000), ("passive", 95_000)]),
                .init(type: "x86_pkg_temp", milliCelsius: 60_000, trips: [("passive", 90_000), ("passive", 85_000)]),
            ])
            let below = ThermalZoneReader.readZones(root: fixture.thermalRoot)
            #expect(below.map(\.passiveMilliCelsius) == [95_000, 85_000], "the lowest passive trip of each zone")
            #expect(
                ThermalZoneReader.decidingZone(below)
                    == ThermalReading(zone: "x86_pkg_temp", celsius: 60, passiveCelsius: 85))
            try fixture.setZone(
                0, .init(type: "acpitz", milliCelsius: 95_500, trips: [("critical", 105_000), ("passive", 95_000)]))
            let above = try #require(
                ThermalZoneReader.decidingZone(ThermalZoneReader.readZones(root: fixture.thermalRoot)))
            #expect(above == ThermalReading(zone: "acpitz", celsius: 95.5, passiveCelsius: 95))
            #expect(above.isHot)
        }
    }
#endif
