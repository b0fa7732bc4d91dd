import SyncGateTesting
import Testing

@testable import SyncGateCore

/// `ChunkedArray` against an array as the model: appends across chunk boundaries, writes in place,
/// iteration, emptying.
@Suite("ChunkedArray", .timeLimit(.minutes(1)))
struct ChunkedArrayTests {
    @Test("matches an array over appends and writes", arguments: [0, 1, 3, 9], [1, 2] as [UInt64])
    func matchesAnArray(chunkShift: Int, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var chunked = ChunkedArray<Int>(chunkShift: chunkShift)
        var model: [Int] = []
        for step in 0..<3_000 {
            if model.isEmpty || random.chance(0.6) {
                chunked.append(step)
                model.append(step)
            } else {
                let index = random.next(below: model.count)
                chunked[index] += 1_000_000
                model[index] += 1_000_000
            }
            #expect(chunked.count == model.count)
        }
        #expect(Array(chunked) == model)
        #expect(chunked.last == model.last)
        #expect(chunked.reversed().first == model.reversed().first)
    }

    @Test("an element keeps its place as the array grows past many chunks")
    func elementsKeepTheirPlaces() {
        var chunked = ChunkedArray<[Int]>(chunkShift: 2)
        for value in 0..<100 { chunked.append([value]) }
        chunked[5].append(50)
        for value in 100..<1_000 { chunked.append([value]) }
        #expect(chunked[5] == [5, 50])
        #expect(chunked[999] == [999])
        #expect(chunked.count == 1_000)
    }

    @Test("emptied, it starts again at index 0")
    func removeAll() {
        var chunked = ChunkedArray<Int>(chunkShift: 3)
        for value in 0..<20 { chunked.append(value) }
        chunked.removeAll()
        #expect(chunked.isEmpty)
        chunked.append(7)
        #expect(Array(chunked) == [7])
    }
}
