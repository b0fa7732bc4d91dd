#if os(Linux)
    import Foundation
    import SyncGateCore
    import SyncGateLinux
    import Testing

    @Suite("PSI files and triggers", .timeLimit(.minutes(1)))
    struct PressureStallParserTests {
        @Test(
            "the some line's avg10",
            arguments: [
                (
                    "some avg10=1.53 avg60=0.87 avg300=0.35 total=13440912\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
                    1.53
                ),
                ("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 0),
                ("some avg10=100.00 avg60=99.10 avg300=50.00 total=9\n", 100),
                // The order of lines does not matter; the full line is not the some line.
                ("full avg10=7.00 avg60=0.00 avg300=0.00 total=0\nsome avg10=2.50 avg60=0.00 avg300=0.00 total=0", 2.5),
                // A trigger written into a fixture is no reading.
                ("some 200000 2000000\nsome avg10=4.00 avg60=0.00 avg300=0.00 total=0\n", 4),
            ] as [(String, Double)])
        func average(text: String, expected: Double) {
            #expect(PressureStallParser.someAverage10(text) == expected)
        }

        @Test(
            "no some avg10 reads as nothing",
            arguments: [
                "", "full avg10=1.00 avg60=0.00 avg300=0.00 total=0\n", "some avg60=1.00 total=0\n",
                "some avg10=abc avg60=0.00\n", "some avg10=-1.00\n", "some avg10=100.01\n", "somex avg10=1.00\n",
            ])
        func malformed(text: String) {
            #expect(PressureStallParser.someAverage10(text) == nil)
        }

        @Test(
            "the some line's total",
            arguments: [
                ("some avg10=1.53 avg60=0.87 avg300=0.35 total=13440912\nfull avg10=0 total=7\n", 13_440_912),
                ("full avg10=0.00 avg60=0.00 avg300=0.00 total=9\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=0", 0),
                ("some avg10=0.00 total=-1\n", nil), ("some avg10=0.00 total=1.5\n", nil), ("some avg10=0.00\n", nil),
                ("full avg10=0.00 total=9\n", nil),
            ] as [(String, UInt64?)])
        func total(text: String, expected: UInt64?) {
            #expect(PressureStallParser.someTotal(text) == expected)
        }

        /// A signal checked against two samples `elapsed` apart, whose CPU total grew by `cpuGrowth` µs (the
        /// others not at all), at the default thresholds (CPU 50 %).
        @Test(
            "a signal is borne out by a stall of the threshold's share of the time since the last sample, up to a window",
            arguments: [
                // A freshly armed trigger's signal with nothing stalled: dismissed however soon.
                (Duration.milliseconds(700), 0, false), (.zero, 0, false), (.seconds(2), 2_600, false),
                // Within the first window: the threshold's rate since the sample.
                (.milliseconds(700), 350_000, true), (.milliseconds(700), 349_999, false),
                // A window or more later: the trigger's own stall (50 % of 2 s), however long ago.
                (.seconds(2), 1_000_000, true), (.seconds(3_600), 1_000_000, true), (.seconds(3_600), 999_999, false),
            ] as [(Duration, UInt64, Bool)])
        func signalCheck(elapsed: Duration, cpuGrowth: UInt64, confirms: Bool) {
            let start = ContinuousClock.now
            let before = PressureStallSample(totals: [.cpu: 5_000, .io: 7, .memory: 0], instant: start)
            let after = PressureStallSample(
                totals: [.cpu: 5_000 + cpuGrowth, .io: 7, .memory: 0], instant: start.advanced(by: elapsed))
            #expect(before.confirms(after, thresholds: .default) == confirms)
        }

        @Test("the memory threshold (10 %) confirms on a memory stall alone; a total that cannot be read confirms")
        func signalCheckPerResource() {
            let start = ContinuousClock.now
            let before = PressureStallSample(totals: [.cpu: 0, .io: 0, .memory: 0], instant: start)
            let later = start.advanced(by: .seconds(10))
            func confirms(_ totals: [PressureResource: UInt64]) -> Bool {
                before.confirms(PressureStallSample(totals: totals, instant: later), thresholds: .default)
            }
            #expect(confirms([.cpu: 0, .io: 0, .memory: 200_000]))
            #expect(!confirms([.cpu: 0, .io: 0, .memory: 199_999]))
            #expect(confirms([.cpu: 0, .io: 0]))
        }

        @Test(
            "a trigger is the threshold's share of a 2 s window",
            arguments: [
                (50.0, "some 1000000 2000000"), (25, "some 500000 2000000"), (10, "some 200000 2000000"),
                (100, "some 2000000 2000000"), (0.00001, "some 1 2000000"),
            ] as [(Double, String)])
        func trigger(percent: Double, expected: String) {
            #expect(PressureStallParser.trigger(percent: percent) == expected)
        }

        /// A missing file is put down to a kernel without PSI; any other failure names the system's error.
        @Test func aFileThatCannotBeReadIsNamedWithWhy() throws {
            let directory = NSTemporaryDirectory() + "syncgate-psi-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            func failure() -> String? {
                do {
                    _ = try PressureStallReading.read(directory: directory)
                    return nil
                } catch {
                    return error.description
                }
            }
            #expect(failure() == "cannot read \(directory)/cpu (a kernel without PSI?)")
            try FileManager.default.createDirectory(atPath: directory + "/cpu", withIntermediateDirectories: true)
            #expect(failure() == "cannot read \(directory)/cpu (\(SystemErrorText.message(EISDIR)))")
        }
    }
#endif
