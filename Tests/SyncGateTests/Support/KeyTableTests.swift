import SyncGateTesting
import Testing

@testable import SyncGateCore

/// `KeyTable` against `Dictionary` as the model, over random mixes of inserts, overwrites and removals,
/// with key patterns that stress its ring and its overflow: keys handed out in order, long-lived keys
/// among a stream of short-lived ones (which share ring slots with later keys), and power-of-two strides
/// (which all fall into a few slots).
@Suite("KeyTable", .timeLimit(.minutes(1)))
struct KeyTableTests {
    /// How keys are drawn: a few live at a time among many, dense runs, and power-of-two strides.
    enum KeyPattern: String, CaseIterable, Sendable {
        case smallRange, sequential, longLivedAmongStream, powerOfTwoStride
    }

    @Test("matches a dictionary over random operations", arguments: KeyPattern.allCases, [1, 2, 3] as [UInt64])
    func matchesDictionary(pattern: KeyPattern, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var table = KeyTable<Int>()
        var model: [UInt64: Int] = [:]
        var next: UInt64 = 1
        var overflowSeen = 0
        for step in 0..<8_000 {
            let key: UInt64
            switch pattern {
            case .smallRange: key = UInt64(random.next(in: 0...64))
            case .sequential:
                // Mostly new keys; removals of old ones keep a sliding window alive.
                if random.chance(0.6) {
                    key = next
                    next += 1
                } else {
                    key = UInt64(random.next(in: max(1, Int(next) - 300)...Int(next)))
                }
            case .longLivedAmongStream:
                // Every 31st key is never removed; the others are removed soon after they are added.
                if random.chance(0.5) {
                    key = next
                    next += 1
                } else {
                    let recent = UInt64(random.next(in: max(1, Int(next) - 40)...Int(next)))
                    key = recent.isMultiple(of: 31) ? recent + 1 : recent
                }
            case .powerOfTwoStride: key = UInt64(random.next(in: 1...400)) << 10
            }
            if pattern == .longLivedAmongStream && key.isMultiple(of: 31) {
                table[key] = step
                model[key] = step
                overflowSeen = max(overflowSeen, table.overflowCount)
                continue
            }
            if random.chance(0.55) {
                table[key] = step
                model[key] = step
            } else {
                #expect(table.removeValue(forKey: key) == model.removeValue(forKey: key))
            }
            #expect(table.count == model.count)
            overflowSeen = max(overflowSeen, table.overflowCount)
        }
        if pattern != .smallRange && pattern != .sequential {
            // The pattern is meant to send keys to the overflow: make sure it did.
            #expect(overflowSeen > 0)
        }
        for (key, value) in model { #expect(table[key] == value) }
        #expect(Set(table.keys) == Set(model.keys))
        #expect(table.values.sorted() == model.values.sorted())
        // Keys never inserted are absent.
        #expect(table[UInt64.max] == nil)
        #expect(!table.contains(next + 1_000_000))
    }

    @Test("growing moves values without copying them, and removing them releases them")
    func valuesAreReleased() {
        final class Tracked {}
        weak var first: Tracked?
        var table = KeyTable<Tracked>()
        do {
            let tracked = Tracked()
            first = tracked
            table[1] = tracked
        }
        for key in 2..<5_000 as Range<UInt64> { table[key] = Tracked() }
        #expect(first != nil)
        #expect(table.count == 4_999)
        table[1] = nil
        #expect(first == nil)
        #expect(table.count == 4_998)
    }
}

/// `MostlyOrderedQueue` against a sorted array as the model.
@Suite("MostlyOrderedQueue", .timeLimit(.minutes(1)))
struct MostlyOrderedQueueTests {
    struct Entry: Comparable {
        var key: Int
        var tag: Int
        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.key < rhs.key }
    }

    @Test("pops in key order whatever the order of insertion", arguments: [0.0, 0.05, 0.5, 1.0], [7, 8] as [UInt64])
    func popsInOrder(outOfOrderShare: Double, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var queue = MostlyOrderedQueue<Entry>()
        var model: [Entry] = []
        var next = 0
        for step in 0..<8_000 {
            if random.chance(0.55) {
                let key: Int
                if random.chance(outOfOrderShare) {
                    key = random.next(in: 0...max(0, next))
                } else {
                    next += 1
                    key = next
                }
                queue.insert(Entry(key: key, tag: step))
                model.append(Entry(key: key, tag: step))
            } else {
                let expected = model.min()
                #expect(queue.top?.key == expected?.key)
                let popped = queue.popTop()
                #expect(popped?.key == expected?.key)
                if let popped, let index = model.firstIndex(where: { $0 == popped }) { model.remove(at: index) }
            }
            #expect(queue.count == model.count)
            if step % 4_000 == 2_999 {
                queue.removeAll()
                model.removeAll()
                #expect(queue.isEmpty && queue.top == nil)
            }
            if step % 2_000 == 1_999 {
                queue.filter { $0.tag % 3 != 0 }
                model.removeAll { $0.tag % 3 == 0 }
                #expect(queue.count == model.count)
            }
        }
        var drained: [Int] = []
        while let entry = queue.popTop() { drained.append(entry.key) }
        #expect(drained == model.map(\.key).sorted())
        #expect(queue.isEmpty && queue.top == nil)
    }

    @Test("removeAll empties the queue and keeps its storage")
    func removeAllKeepsStorage() {
        var queue = MostlyOrderedQueue<Entry>()
        for key in 0..<100 { queue.insert(Entry(key: key, tag: 0)) }
        queue.insert(Entry(key: -1, tag: 1))  // out of order: goes to the heap
        let capacity = queue.capacity
        queue.removeAll()
        #expect(queue.isEmpty && queue.top == nil && queue.popTop() == nil)
        #expect(queue.capacity == capacity)
        queue.insert(Entry(key: 5, tag: 2))
        queue.insert(Entry(key: 3, tag: 3))
        #expect(queue.popTop()?.key == 3)
        #expect(queue.popTop()?.key == 5)
        #expect(queue.isEmpty)
    }
}
