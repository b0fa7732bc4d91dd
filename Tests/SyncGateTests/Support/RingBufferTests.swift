import SyncGateTesting
import Testing

@testable import SyncGateCore

/// `RingBuffer` against an array as the model, and the release of each removed element at once.
@Suite("RingBuffer", .timeLimit(.minutes(1)))
struct RingBufferTests {
    /// Holds a value and counts how many of its kind are alive.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    /// How a run mixes appends and removals: kept near a bound (the history's use), growing, or
    /// draining to empty again and again (the head wrapping round the buffer).
    enum Mix: String, CaseIterable, Sendable {
        case bounded, growing, drainingOften
    }

    @Test("matches an array over random appends and removals", arguments: Mix.allCases, [1, 2, 3] as [UInt64])
    func matchesAnArray(mix: Mix, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var ring = RingBuffer<Int>()
        var model: [Int] = []
        for step in 0..<5_000 {
            let append: Bool
            switch mix {
            case .bounded: append = model.count < 100 || random.chance(0.3)
            case .growing: append = random.chance(0.7)
            case .drainingOften: append = model.isEmpty || (model.count < 20 && random.chance(0.5))
            }
            if append {
                ring.append(step)
                model.append(step)
            } else if !model.isEmpty {
                #expect(ring.removeFirst() == model.removeFirst())
            }
            if mix == .bounded {
                while ring.count > 100 {
                    #expect(ring.removeFirst() == model.removeFirst())
                }
            }
            #expect(ring.count == model.count)
            #expect(ring.first == model.first)
            #expect(ring.last == model.last)
        }
        #expect(Array(ring) == model)
        if let probe = model.dropFirst(model.count / 2).first {
            #expect(ring.lastIndex(where: { $0 == probe }) == model.lastIndex(of: probe))
        }
    }

    @Test func aRemovedElementIsReleasedAtOnceAndTheOthersStay() {
        Tracked.alive = 0
        var ring = RingBuffer<Tracked>()
        for value in 0..<40 { ring.append(Tracked(value)) }
        #expect(Tracked.alive == 40)
        for expected in 0..<25 {
            #expect(ring.removeFirst().value == expected)
            #expect(Tracked.alive == 40 - expected - 1)
        }
        // Wrapped round: appends reuse the freed places, the order stays oldest first.
        for value in 40..<60 { ring.append(Tracked(value)) }
        #expect(ring.map(\.value) == Array(25..<60))
        #expect(Tracked.alive == 35)
        ring = RingBuffer()
        #expect(Tracked.alive == 0)
    }
}
