import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The active jobs' id index follows every insertion, replacement and removal.
@Suite(.timeLimit(.minutes(1)))
struct DurableActiveJobsTests {
    static func job(_ id: SyncJob.ID, attempt: Int = 0) -> DurableSchedulerStateMachine.Active {
        DurableSchedulerStateMachine.Active(id: id, attempt: attempt, maxAttempts: 3)
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
}
