extension Scenario {
    /// Scenario 9: status change → job body for each kind of source, sent from a dedicated thread;
    /// baseline a continuation resumed from such a thread, all sampled interleaved.
    static func runAppSource(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.appSource.name
        var result = ScenarioResult(
            name: name, number: 9, title: "status change → job body starts, by kind of source",
            measures: "from just before a dedicated thread (outside the pool, as a source's own thread) sends the "
                + "change to the first instruction of the job waiting for it: an app's StatusFeed<AccountStatus> "
                + "(the public synchronous path), SyncGate's ConnectivityObserver with its link status sent by "
                + "hand (the built-in path through the NetworkManager merger; Linux only), and an app's own "
                + "AccountStatusProviding type that offers only an AsyncStream (followed by a task); baseline: "
                + "from just before that thread resumes a CheckedContinuation to the resumed task's first "
                + "instruction. Also, from the same kind of thread and in the same rounds, the skeleton gate (scenario 1's), "
                + "the contract's floor (scenario 1's) and the code an app writes without SyncGate (an AsyncStream "
                + "and a task looping over it)"
        )
        var subjects: [(label: String, probe: SourcePathProbe, judged: Bool)] = []
        subjects.append(("app's StatusFeed → body", SourcePathProbe(scenario: name, source: .statusFeed()), true))
        #if os(Linux)
            subjects.append(
                (
                    "built-in ConnectivityObserver → body",
                    SourcePathProbe(scenario: name, source: .builtInObserver()), true
                ))
        #endif
        subjects.append(
            ("app's stream-only source → body", SourcePathProbe(scenario: name, source: .streamOnly()), false))
        let referenceProbes: [any LatencyProbe] = [
            SkeletonGateProbe(scenario: name, trigger: .open(fromThread: true)),
            UserLoopProbe(scenario: name, fromThread: true),
            ContinuationResumeProbe(scenario: name, fromThread: true),
            ContractFloorProbe(scenario: name, trigger: .statusChange(fromThread: true)),
        ]
        let samples = try await InterleavedSampler.run(
            subjects.map(\.probe) + referenceProbes, warmup: sizes.warmup, samples: sizes.samples)
        let references = References(
            skeleton: samples[subjects.count], floor: samples[subjects.count + 3],
            userLoop: samples[subjects.count + 1],
            baseline: ("continuation resumed from that thread", samples[subjects.count + 2]))
        let baseline = references.baseline
        for (index, subject) in subjects.enumerated() {
            if subject.judged {
                result.latencies += references.comparisons(of: (subject.label, samples[index]))
            } else {
                result.latencies.append(
                    LatencyComparison(
                        subject: subject.label, series: samples[index], baseline: baseline.0,
                        baselineSeries: baseline.1, goals: []))
            }
        }
        result.latencies += references.rows
        for subject in subjects { await subject.probe.finish() }
        let expected = sizes.warmup + sizes.samples
        for subject in subjects where subject.probe.succeeded != expected {
            throw BenchmarkFailure(
                scenario: name, message: "\(subject.label): \(subject.probe.succeeded) of \(expected) jobs succeeded")
        }
        result.checks.append(
            "each of the \(subjects.count * expected) measured jobs ran exactly once and succeeded, on every source")
        return result
    }
}
