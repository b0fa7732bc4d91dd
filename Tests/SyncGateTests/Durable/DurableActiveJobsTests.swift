import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The active jobs' id index follows every insertion, replacement and removal.
@Suite(.timeLimit(.minutes(1)))
struct DurableActiveJobsTests {
    static func job(_ id: SyncJob.ID, attempt: Int = 0) -> DurableSchedulerStateMachine.Active {
        DurableSchedulerStateMachine.Active(id: id, attempt: attempt)
    }

    @Test func theIndexFollowsInsertionReplacementAndRemoval() {
        var active = DurableActiveJobs()
        active[1] = Self.job("a")
        active[2] = Self.job("b")
        #expect(active.containsJob(id: "a") && active.containsJob(id: "b"))
        active[1] = Self.job("a", attempt: 1)  // the same job, updated
        #expect(active.containsJob(id: "a"))
        #expect(active[1]?.attempt == 1)
        active[2] = Self.job("c")  // another job under the same sequence
        #expect(!active.containsJob(id: "b"))
        #expect(active.containsJob(id: "c"))
        active[1] = nil
        #expect(!active.containsJob(id: "a"))
        active[7] = nil  // removing what is not there changes nothing
        #expect(active.count == 1)
        #expect(active.idsInSequenceOrder == ["c"])
    }

    @Test func anIDUnderTwoSequencesStaysUntilBothAreGone() {
        var active = DurableActiveJobs()
        active[3] = Self.job("x")
        active[1] = Self.job("x")
        #expect(active.idsInSequenceOrder == ["x", "x"])
        active[3] = nil
        #expect(active.containsJob(id: "x"))
        active[1] = nil
        #expect(!active.containsJob(id: "x"))
    }

    /// Random insertions, replacements and removals against a dictionary as the model: the places of
    /// removed jobs are used again without mixing jobs up.
    @Test("matches a dictionary over random changes", arguments: [1, 2, 3] as [UInt64])
    func matchesADictionary(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var active = DurableActiveJobs()
        var model: [UInt64: DurableSchedulerStateMachine.Active] = [:]
        for step in 0..<3_000 {
            let sequence = UInt64(random.next(below: 200))
            if random.chance(0.4) {
                active[sequence] = nil
                model[sequence] = nil
            } else {
                let job = Self.job("job-\(random.next(below: 150))", attempt: step)
                active[sequence] = job
                model[sequence] = job
            }
            #expect(active.count == model.count)
        }
        for sequence in 0..<UInt64(200) { #expect(active[sequence] == model[sequence]) }
        #expect(Set(active.sequences) == Set(model.keys))
        #expect(active.idsInSequenceOrder == model.sorted { $0.key < $1.key }.map(\.value.id))
        let ids = Set(model.values.map(\.id))
        for index in 0..<150 { #expect(active.containsJob(id: "job-\(index)") == ids.contains("job-\(index)")) }
    }
}
