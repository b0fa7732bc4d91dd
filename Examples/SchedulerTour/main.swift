// How an app uses SyncScheduler: photo uploads that need a large-transfer network, a metadata sync
// that needs the account, and a unique "refresh" job that is submitted twice but runs once.
//
// The environment is set by hand (ManualSyncEnvironment) and time is a ManualClock, so every run
// prints the same lines.

import SyncGate
import SyncGateTesting

struct UploadFailed: Error, CustomStringConvertible {
    var description: String { "server said 503" }
}

let clock = ManualClock()
let manual = ManualSyncEnvironment(account: .noAccount, clock: clock)
let scheduler = try SyncScheduler(
    environment: manual.environment,
    configuration: .init(maxConcurrentJobs: 2, randomSource: { 0.5 }),
    clock: clock
)

func say(_ line: String) {
    print(line)
}

// Uploads: big, so they need Wi-Fi or Ethernet that is neither metered nor in Low Data Mode. The
// second photo fails once and is retried after a backoff.
let failures = StatusBroadcast(0)
var uploads: [SyncJobHandle] = []
for photo in 1...2 {
    uploads.append(
        try scheduler.submit(
            SyncJob(
                id: "upload-photo-\(photo)",
                requires: .largeTransfer,
                retry: .fixed(delay: .seconds(30), maxAttempts: 3),
                tags: ["uploads"]
            ) { context in
                if photo == 2 && context.attempt == 1 {
                    failures.update { $0 += 1 }
                    throw UploadFailed()
                }
            }
        )
    )
}

// Metadata sync: small, but needs the account.
let metadata = try scheduler.submit(SyncJob(id: "metadata-sync", requires: .syncReady) { _ in })

// A refresh requested twice: the second request returns the first job's handle.
let refresh = try scheduler.submit(SyncJob(id: "refresh-1", requires: .network, uniqueKey: "refresh") { _ in })
let again = try scheduler.submit(SyncJob(id: "refresh-2", requires: .network, uniqueKey: "refresh") { _ in })
say("refresh submitted twice -> same job: \(refresh === again) (\(again.id))")

say("\nOffline, signed out:")
say(scheduler.snapshot().description)

say("\nOn a phone hotspot (expensive):")
manual.setConnectivity(.connected(via: .wifi, isExpensive: true))
say("refresh: \(try await refresh.outcome())")
say(scheduler.snapshot().description)

say("\nSigned in:")
manual.setAccount(.available)
say("metadata-sync: \(try await metadata.outcome())")

say("\nOn home Wi-Fi:")
manual.setConnectivity(.connected(via: .wifi))
say("upload-photo-1: \(try await uploads[0].outcome())")
for await state in uploads[1].states where state == .delayed(attempt: 2) {
    say("upload-photo-2: attempt 1 failed (\(failures.value) failure), \(state)")
    break
}
clock.advance(by: .seconds(30))
say("upload-photo-2: \(try await uploads[1].outcome())")

await scheduler.shutdown(gracePeriod: .seconds(5))
say("\nshut down; jobs left: \(scheduler.snapshot().jobs.count)")
