import Testing

@testable import SyncGateCore

/// `InlineFirstList` against an array as the model: order, count, emptiness and release of its elements.
@Suite("InlineFirstList", .timeLimit(.minutes(1)))
struct InlineFirstListTests {
    /// How many ``Tracked`` values of one test are alive; each test has its own, so tests run in parallel.
    final class Census {
        var alive = 0
    }

    /// Holds a value and counts itself in its census while alive.
    final class Tracked {
        let value: Int
        let census: Census
        init(_ value: Int, in census: Census) {
            self.value = value
            self.census = census
            census.alive += 1
        }
        deinit { census.alive -= 1 }
    }

    @Test("holds what was appended, in order", arguments: [0, 1, 2, 3, 100])
    func matchesAnArray(count: Int) {
        var list = InlineFirstList<Int>()
        var model: [Int] = []
        for value in 0..<count {
            #expect(list.count == model.count)
            #expect(list.isEmpty == model.isEmpty)
            // Alternate the two ways of appending.
            if value.isMultiple(of: 3) {
                list.append(contentsOf: [value])
            } else {
                list.append(value)
            }
            model.append(value)
        }
        #expect(Array(list) == model)
        #expect(list.count == count)
        #expect(list.isEmpty == (count == 0))
    }

    @Test("releases its elements when it goes, the inline one too", arguments: [1, 2, 5])
    func releasesElements(count: Int) {
        let census = Census()
        do {
            var list = InlineFirstList<Tracked>()
            for value in 0..<count { list.append(Tracked(value, in: census)) }
            #expect(census.alive == count)
            #expect(list.map(\.value) == Array(0..<count))
        }
        #expect(census.alive == 0)
    }
}
