/// Dependencies and appends: a job parked until the jobs it depends on succeed (docs/ARCHITECTURE.md §4).
///
/// A dependent stays `parked` while `pendingDependencies` is not empty. When a dependency resolves, each
/// dependent either loses that entry (success, or an `appendOrReplace` edge) and is activated once it
/// has no blocker left, or fails with the dependency's cause, which propagates down the chain. A
/// dependent released by an `appendOrReplace` edge from a job that ended before its own dependencies
/// takes those over, so the jobs of one unique key still run one after another, in order.
extension SchedulerStateMachine {
    /// One dependency of a submission.
    enum Dependency {
        /// An unfinished job; `propagatesFailure` is false for an `appendOrReplace` edge.
        case unfinished(Key, propagatesFailure: Bool)
        /// A finished job kept in the history.
        case finished(FinishedJob)
        /// A job that did not succeed in an earlier run of the app (a restored durable job's).
        case failedEarlier(id: SyncJob.ID, outcome: SyncJobOutcome)
    }

    /// The dependencies named by `spec.dependsOn`, or the error naming the ids that are not usable.
    func dependencies(of spec: SyncJob.Spec, now: Duration) -> Result<[Dependency], SyncSchedulerError> {
        if let failure = spec.restoredDependencyFailure {
            return .success([.failedEarlier(id: failure.id, outcome: failure.outcome)])
        }
        let names = spec.dependsOn
        guard !names.isEmpty else { return .success([]) }
        if names.contains(spec.id) {
            return .failure(
                .invalidJob(
                    SyncJobRefusal(
                        jobID: spec.id, field: "dependsOn", value: "\"\(spec.id)\"", relatedJobs: [spec.id],
                        reason: "dependsOn names the job itself, \"\(spec.id)\", which would be a cycle")))
        }
        var found: [Dependency] = []
        var unknown: [SyncJob.ID] = []
        for id in names {
            if let key = ids[id], let job = jobs[key] {
                if job.spec.period != nil || job.spec.calendar != nil || job.spec.fileTrigger != nil {
                    return .failure(
                        .invalidJob(
                            SyncJobRefusal(
                                jobID: spec.id, field: "dependsOn", value: "\"\(id)\"", relatedJobs: [id],
                                reason: "dependsOn names periodic job \"\(id)\", which never succeeds")))
                }
                found.append(.unfinished(key, propagatesFailure: true))
            } else if let finished = finishedJob(id: id, now: now) {
                found.append(.finished(finished))
            } else {
                unknown.append(id)
            }
        }
        if !unknown.isEmpty {
            let list = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            return .failure(
                .invalidJob(
                    SyncJobRefusal(
                        jobID: spec.id, field: "dependsOn", value: list, relatedJobs: unknown,
                        reason: "dependsOn names unknown jobs \(list) (neither unfinished nor in the history)")))
        }
        return .success(found)
    }

    /// The dependency on the last unfinished job of `uniqueKey` for an append.
    func appendDependency(
        _ spec: SyncJob.Spec, uniqueKey: String, policy: DuplicatePolicy
    ) -> Result<Dependency, SyncSchedulerError> {
        guard let last = uniqueKeys[uniqueKey], let job = jobs[last] else {
            preconditionFailure("appending to unique key \(uniqueKey) without an unfinished job")
        }
        if job.spec.period != nil || job.spec.calendar != nil || job.spec.fileTrigger != nil {
            return .failure(
                .invalidJob(
                    SyncJobRefusal(
                        jobID: spec.id, field: "onDuplicate", value: "\(policy)", relatedJobs: [job.spec.id],
                        reason:
                            "onDuplicate \(policy) cannot follow periodic job \"\(job.spec.id)\" of uniqueKey \"\(uniqueKey)\""
                    )))
        }
        return .success(.unfinished(last, propagatesFailure: policy == .append))
    }

    /// Ties a new job to its dependencies. Returns true when the job has ended at once because a
    /// dependency in the history did not succeed.
    mutating func link(_ key: Key, to dependencies: [Dependency], now: Duration, actions: inout [Action]) -> Bool {
        guard let job = jobs[key] else { return false }
        for dependency in dependencies {
            switch dependency {
            case .unfinished(let dependencyKey, let propagatesFailure):
                guard let dependencyJob = jobs[dependencyKey] else { continue }
                dependencyJob.dependents.append((key, propagatesFailure))
                job.pendingDependencies.append(dependencyKey)
                job.dependencyIDs.append(dependencyJob.spec.id)
            case .finished(let finished):
                job.dependencyIDs.append(finished.id)
                guard finished.outcome == .succeeded else {
                    let cause = Self.dependencyOutcome(id: finished.id, outcome: finished.outcome)
                    resolve(key, cause, now: now, actions: &actions)
                    return true
                }
                job.inputs.append((finished.id, finished.payload))
            case .failedEarlier(let id, let outcome):
                job.dependencyIDs.append(id)
                resolve(key, Self.dependencyOutcome(id: id, outcome: outcome), now: now, actions: &actions)
                return true
            }
        }
        return false
    }

    /// What a dependent's outcome is when the dependency `id` ended with `outcome`: the root cause is
    /// kept, so a failure deep in a chain names the job that failed.
    static func dependencyOutcome(id: SyncJob.ID, outcome: SyncJobOutcome) -> SyncJobOutcome {
        if case .failed(let error) = outcome, case SyncJobError.dependencyDidNotSucceed = error { return outcome }
        return .failed(SyncJobError.dependencyDidNotSucceed(id: id, outcome: outcome))
    }

    /// Releases the dependents of a job that just ended; returns those its outcome fails.
    mutating func releaseDependents(
        of job: Job, outcome: SyncJobOutcome, now: Duration, actions: inout [Action]
    ) -> [(Key, SyncJobOutcome)] {
        var failed: [(Key, SyncJobOutcome)] = []
        let succeeded = outcome == .succeeded
        for (dependentKey, propagatesFailure) in job.dependents {
            guard let dependent = jobs[dependentKey] else { continue }
            dependent.pendingDependencies.removeAll { $0 == job.key }
            let fails = !succeeded && propagatesFailure
            // A job that ended before its own dependencies (cancelled or expired while parked, or failed
            // with one of them) hands them to its dependents: one released by an appendOrReplace edge still
            // runs after them, without failing with them; one that fails with it passes them on in turn.
            for inherited in job.pendingDependencies where !dependent.pendingDependencies.contains(inherited) {
                guard let ancestor = jobs[inherited] else { continue }
                dependent.pendingDependencies.append(inherited)
                if !fails {
                    ancestor.dependents.append((dependentKey, false))
                    dependent.dependencyIDs.append(ancestor.spec.id)
                }
            }
            if fails {
                // Stopped by a shutdown, a dependency did not fail: its dependents are stopped with it.
                let stopped = isShutDown && outcome == .cancelled
                failed.append(
                    (dependentKey, stopped ? .cancelled : Self.dependencyOutcome(id: job.spec.id, outcome: outcome)))
                continue
            }
            if succeeded { dependent.inputs.append((job.spec.id, job.payload)) }
            guard dependent.pendingDependencies.isEmpty, dependent.phase == .parked else {
                publishBlockers(of: dependent, actions: &actions)
                continue
            }
            if !isBlocked(dependentKey) {
                activate(dependentKey, now: now, startIfPossible: false, actions: &actions)
            } else {
                if let uniqueKey = dependent.spec.uniqueKey, runningUnique[uniqueKey] != nil {
                    // Appended behind a job whose attempt is still returning: the key's release starts it.
                    parkedUnique[uniqueKey] = dependentKey
                }
                publishBlockers(of: dependent, actions: &actions)
            }
        }
        return failed
    }

    /// The payloads of a job's succeeded dependencies, in the order of its dependencies.
    func inputs(of key: Key) -> [(id: SyncJob.ID, payload: Payload)] {
        guard let job = jobs[key], !job.inputs.isEmpty else { return [] }
        let order = job.dependencyIDs
        return job.inputs.sorted { left, right in
            (order.firstIndex(of: left.id) ?? 0) < (order.firstIndex(of: right.id) ?? 0)
        }
    }

    /// Cancels every unfinished job of a unique key (all of an appended chain).
    mutating func cancel(uniqueKey: String, now: Duration) -> [Action] {
        cancel(keys: Array((uniqueChains[uniqueKey] ?? []).reversed()), now: now)
    }
}
