#if os(Linux)
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
            "a trigger is the threshold's share of a 2 s window",
            arguments: [
                (50.0, "some 1000000 2000000"), (25, "some 500000 2000000"), (10, "some 200000 2000000"),
                (100, "some 2000000 2000000"), (0.00001, "some 1 2000000"),
            ] as [(Double, String)])
        func trigger(percent: Double, expected: String) {
            #expect(PressureStallParser.trigger(percent: percent) == expected)
        }
    }
#endif
