import SyncGate
import Testing

/// The metered verdict with its confidence: what each value means, how a status carries it, and which
/// values meet `.unmetered` and `.unmeteredConfirmed`.
@Suite("Metered confidence", .timeLimit(.minutes(1)))
struct MeteredConfidenceTests {
    /// Each confidence: its word, whether it counts as metered, whether it is confirmed, and whether a
    /// connected path with it meets `.unmetered` and `.unmeteredConfirmed`.
    static let table: [(MeteredConfidence, String, metered: Bool, confirmed: Bool, unmetered: Bool, strict: Bool)] = [
        (.confirmedUnmetered, "confirmed-unmetered", false, true, true, true),
        (.guessedUnmetered, "guessed-unmetered", false, false, true, false),
        (.unknown, "unknown", false, false, true, false),
        (.guessedMetered, "guessed-metered", true, false, false, false),
        (.confirmedMetered, "confirmed-metered", true, true, false, false),
    ]

    @Test("the table covers every confidence")
    func tableIsComplete() {
        #expect(Set(Self.table.map(\.0)) == Set(MeteredConfidence.allCases))
        #expect(Self.table.count == MeteredConfidence.allCases.count)
    }

    @Test("each confidence reads and gates as documented", arguments: 0..<table.count)
    func row(index: Int) {
        let (confidence, word, metered, confirmed, unmetered, strict) = Self.table[index]
        #expect(confidence.description == word)
        #expect(confidence.isMetered == metered)
        #expect(confidence.isConfirmed == confirmed)
        for interface in [ConnectionInterface.wifi, .cellular, .wiredEthernet, .other] {
            let connected = ConnectivityStatus.connected(via: interface, metered: confidence)
            #expect(connected.metered == confidence)
            #expect(connected.isExpensive == metered)
            let status = SyncEnvironmentStatus(connectivity: connected)
            #expect(status.satisfies(.unmetered) == unmetered, "\(confidence) via \(interface)")
            #expect(status.satisfies(.unmeteredConfirmed) == strict, "\(confidence) via \(interface)")
            #expect(status.satisfies([.unmetered, .unmeteredConfirmed]) == strict)
        }
        // Without a path neither holds, and the confidence is unknown whatever the source said.
        let down = ConnectivityStatus(isConnected: false, interface: .wifi, metered: confidence, isConstrained: false)
        #expect(down.metered == .unknown)
        #expect(
            down == ConnectivityStatus(isConnected: false, interface: .wifi, isExpensive: false, isConstrained: false))
        let status = SyncEnvironmentStatus(connectivity: down)
        #expect(!status.satisfies(.unmetered))
        #expect(!status.satisfies(.unmeteredConfirmed))
    }

    @Test("a plain isExpensive flag is the caller's verdict: confirmed")
    func flagIsConfirmed() {
        #expect(ConnectivityStatus.connected(via: .wifi).metered == .confirmedUnmetered)
        #expect(ConnectivityStatus.connected(via: .cellular, isExpensive: true).metered == .confirmedMetered)
        #expect(ConnectivityStatus.disconnected.metered == .unknown)
        let downButExpensive = ConnectivityStatus(
            isConnected: false, interface: .none, isExpensive: true, isConstrained: false)
        #expect(downButExpensive == .disconnected)
        #expect(!downButExpensive.isExpensive)
    }

    @Test("the factories")
    func factories() {
        #expect(MeteredConfidence.confirmed(isMetered: true) == .confirmedMetered)
        #expect(MeteredConfidence.confirmed(isMetered: false) == .confirmedUnmetered)
        #expect(MeteredConfidence.guessed(isMetered: true) == .guessedMetered)
        #expect(MeteredConfidence.guessed(isMetered: false) == .guessedUnmetered)
    }

    @Test("the confidence is part of the status: a change of confidence alone is a change")
    func confidenceIsPartOfEquality() {
        let guessed = ConnectivityStatus.connected(via: .wifi, metered: .guessedUnmetered)
        let confirmed = ConnectivityStatus.connected(via: .wifi, metered: .confirmedUnmetered)
        #expect(guessed != confirmed)
        #expect(guessed.isExpensive == confirmed.isExpensive)
        #expect(guessed.description == confirmed.description)
    }
}
