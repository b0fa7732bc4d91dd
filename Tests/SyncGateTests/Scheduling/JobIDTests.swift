import SyncGate
import SyncGateTesting
import Testing

/// Default job identifiers: a prefix drawn once per launch, then a counter.
@Suite("Default job identifiers", .timeLimit(.minutes(1)))
struct JobIDTests {
    @Test("two launches draw different prefixes, so their first identifiers differ")
    func launchesDiffer() {
        let first = JobIDGenerator()
        let second = JobIDGenerator()
        #expect(first.prefix != second.prefix)
        #expect(first.next() != second.next())
    }

    @Test("a prefix is nine base-36 characters, drawn from the generator it is given")
    func prefixFormat() {
        var random = SeededRandom(seed: 42)
        let prefix = JobIDGenerator.makePrefix(using: &random)
        var replay = SeededRandom(seed: 42)
        #expect(JobIDGenerator.makePrefix(using: &replay) == prefix)
        #expect(prefix.count == 9)
        #expect(prefix.allSatisfy { $0.isASCII && ($0.isNumber || $0.isLowercase) })
        // One prefix in 36 starts with a zero digit: padded, every prefix keeps its nine characters.
        var many = SeededRandom(seed: 7)
        let prefixes = (0..<1_000).map { _ in JobIDGenerator.makePrefix(using: &many) }
        #expect(prefixes.allSatisfy { $0.count == 9 })
        #expect(prefixes.contains { $0.hasPrefix("0") })
    }

    @Test("identifiers of one launch count up in base 36 after the prefix")
    func counter() {
        let launch = JobIDGenerator(prefix: "k3f9x2ab0")
        #expect((1...37).map { _ in launch.next() }.suffix(2) == ["k3f9x2ab0#10", "k3f9x2ab0#11"])
    }

    @Test("SyncJob.makeID() uses the launch's generator and stays within 15 bytes, stored inline")
    func makeID() {
        let launch = JobIDGenerator(prefix: "zzzzzzzzz")
        let ids = JobIDGenerator.$current.withValue(launch) { (0..<3).map { _ in SyncJob.makeID() } }
        #expect(ids == ["zzzzzzzzz#1", "zzzzzzzzz#2", "zzzzzzzzz#3"])
        #expect(SyncJob.makeID().hasPrefix(JobIDGenerator.process.prefix + "#"))
        // The longest identifier of the first 36⁵ − 1 jobs of a launch: a Swift small string holds 15 bytes.
        #expect("zzzzzzzzz#\(String(60_466_175, radix: 36))".utf8.count == 15)
    }

    @Test(
        "serial(of:) reads the counter back only from an id spelled exactly as the generator spells them",
        arguments: [
            ("k3f9x2ab0#1", 1), ("k3f9x2ab0#z", 35), ("k3f9x2ab0#10", 36),
            ("k3f9x2ab0#3w5e11264sgsf", UInt64.max), ("k3f9x2ab0#3w5e11264sgsg", nil), ("k3f9x2ab0#01", nil),
            ("k3f9x2ab0#0", nil), ("k3f9x2ab0#", nil), ("k3f9x2ab0#A", nil), ("k3f9x2ab0#1 ", nil),
            ("k3f9x2ab1#1", nil), ("k3f9x2ab0x1", nil), ("xk3f9x2ab0#1", nil), ("k3f9x2ab0#10000000000000", nil),
            ("k3f9x2ab0#1é", nil), ("", nil),
        ] as [(String, UInt64?)]
    )
    func serial(id: String, expected: UInt64?) {
        #expect(JobIDGenerator(prefix: "k3f9x2ab0").serial(of: id) == expected)
    }

    @Test("every counter reads back from the id it spells, large (not inline) strings included")
    func serialRoundTrip() {
        let launch = JobIDGenerator(prefix: "k3f9x2ab0")
        var random = SeededRandom(seed: 5)
        let counters = (0..<500).map { _ in random.next() >> (random.next() % 64) } + [1, 36, UInt64.max]
        for counter in counters where counter > 0 {
            #expect(launch.serial(of: "k3f9x2ab0#" + String(counter, radix: 36)) == counter)
        }
        #expect(launch.serial(of: launch.next()) == 1)
        #expect(launch.serial(of: launch.next()) == 2)
    }
}
