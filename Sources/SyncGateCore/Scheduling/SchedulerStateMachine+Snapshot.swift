extension SchedulerStateMachine {
    /// The unfinished jobs as the public snapshot describes them, in submission order.
    func snapshot(now: Duration, progress: (Payload) -> SyncJobProgress? = { _ in nil }) -> SyncSchedulerSnapshot {
        let treatedAsMet = status.requirementsTreatedAsMet
        let jobs = self.jobs.values.sorted { $0.key < $1.key }.map { job -> SyncSchedulerSnapshot.Job in
            let unmet = status.unmetRequirements(job.requirements)
            let unmetConditions = status.unmetConditions(job.conditions)
            let state: SyncJobState
            switch job.phase {
            case .parked: state = JobLifecycle.blocked(by: blockers(of: job))
            case .waiting: state = .waiting(unmet: unmet, conditions: unmetConditions)
            case .delayed: state = .delayed(attempt: job.nextAttempt)
            case .running: state = .running(attempt: job.attempt)
            }
            return SyncSchedulerSnapshot.Job(
                id: job.spec.id,
                state: state,
                attempt: job.phase == .running ? job.attempt : job.nextAttempt,
                priority: job.spec.priority,
                tags: job.spec.tags,
                requirements: job.spec.requirements,
                conditions: job.spec.conditions,
                unmetRequirements: unmet,
                unmetConditions: unmetConditions,
                requirementsTreatedAsMet: job.requirements.intersection(treatedAsMet),
                serialGroup: job.spec.serialGroup,
                uniqueKey: job.spec.uniqueKey,
                isWaitingForTurn: job.phase == .parked,
                isStopping: job.stop != nil,
                stopReason: job.lastStopReason,
                isPastRunTimeout: job.isPastRunTimeout,
                dependsOn: job.dependencyIDs,
                pendingDependencies: job.pendingDependencies.compactMap { self.jobs[$0]?.spec.id },
                periods: job.series?.counts,
                progress: progress(job.payload),
                nextScheduledAt: nextScheduledDate(of: job),
                relaxations: relaxationStatuses(of: job, now: now),
                allowedNetworks: job.spec.allowedNetworks,
                isNetworkNotAllowed: !status.allows(job.spec.allowedNetworks),
                fileWait: fileWait(of: job)
            )
        }
        return SyncSchedulerSnapshot(
            jobs: jobs,
            runningCount: running.count,
            maxConcurrentJobs: maxConcurrentJobs,
            status: status,
            isShutDown: isShutDown
        )
    }
}
