import SyncGate
import Testing

/// The resource values: thresholds and their check, the levels against them, and their text.
@Suite("Resource status values", .timeLimit(.minutes(1)))
struct ResourceStatusTests {
    @Test(
        "thresholds above 0 and at most 100 are valid; others are refused naming the field and the value",
        arguments: [
            (PressureThresholds(), nil),
            (PressureThresholds(cpu: 100, io: 0.01, memory: 1), nil),
            (PressureThresholds(cpu: 0), "pressure threshold cpu must be above 0 and at most 100 (percent), got 0.0"),
            (
                PressureThresholds(io: 100.5),
                "pressure threshold io must be above 0 and at most 100 (percent), got 100.5"
            ),
            (
                PressureThresholds(memory: -1),
                "pressure threshold memory must be above 0 and at most 100 (percent), got -1.0"
            ),
            (
                PressureThresholds(cpu: .nan),
                "pressure threshold cpu must be above 0 and at most 100 (percent), got nan"
            ),
        ] as [(PressureThresholds, String?)])
    func validation(thresholds: PressureThresholds, expected: String?) {
        #expect(thresholds.validationError == expected)
    }

    @Test("a resource at its threshold counts; below it or unread does not")
    func levelsAgainstThresholds() {
        let thresholds = PressureThresholds(cpu: 50, io: 25, memory: 10)
        #expect(PressureLevels(cpu: 49.99, io: 24.99, memory: 9.99).resourcesAtOrAbove(thresholds).isEmpty)
        #expect(PressureLevels(cpu: 50, io: 0, memory: 10).resourcesAtOrAbove(thresholds) == [.cpu, .memory])
        #expect(PressureLevels(io: 99).resourcesAtOrAbove(thresholds) == [.io])
        #expect(PressureLevels().resourcesAtOrAbove(thresholds).isEmpty)
    }

    @Test("descriptions")
    func descriptions() {
        #expect(PressureThresholds.default.description == "cpu 50.00 %, io 25.00 %, memory 10.00 %")
        #expect(PressureLevels(cpu: 3.1, memory: 0.05).description == "cpu 3.10 %, memory 0.05 %")
        #expect(PressureLevels().description == "not read")
        #expect(PressureLevels.format(.nan) == "nan")
        #expect(PressureLevels.format(-0.5) == "-0.50")
        #expect(PressureLevels.format(1e300) == "1e+300")
        #expect(
            ThermalReading(zone: "acpitz", celsius: 45, passiveCelsius: 95.25).description
                == "acpitz 45.0 °C (passive 95.3 °C)")
        #expect(ResourceStatus.unknown.description == "pressure low; not hot")
        #expect(
            ResourceStatus(
                isUnderPressure: true, pressure: PressureLevels(cpu: 80, io: 1, memory: 0), isHot: true,
                thermal: ThermalReading(zone: "skin", celsius: 46, passiveCelsius: 45)
            ).description
                == "pressure high (cpu 80.00 %, io 1.00 %, memory 0.00 %); hot (skin 46.0 °C (passive 45.0 °C))")
    }
}
