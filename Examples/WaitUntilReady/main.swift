// Shows `waitUntilSyncReady(timeout:)` and `waitUntil(_:timeout:)` against a ManualSyncEnvironment.
//
// The environment's parts are set by hand and time is a ManualClock, so the run is deterministic:
// the same lines print in the same order every time.

import SyncGate
import SyncGateTesting

let clock = ManualClock()
let manual = ManualSyncEnvironment(account: .noAccount, clock: clock)
let environment = manual.environment

print("start:   \(environment.status)")

// 1. A wait with a timeout gives up on the clock even when nothing changes.
let impatient = Task { await environment.waitUntilSyncReady(timeout: .seconds(5)) }
await clock.waitForSleepers(1)
clock.advance(by: .seconds(5))
print("waitUntilSyncReady(timeout: 5s) with nothing changing -> \(await impatient.value)")

// 2. A wait that is released by the environment: network first, then the account.
let patient = Task { await environment.waitUntilSyncReady(timeout: .seconds(60)) }
await clock.waitForSleepers(1)
manual.setConnectivity(.connected(via: .wifi))
print("wifi up: ready=\(environment.status.isSyncReady), waiting for the account")
manual.setAccount(.available)
print("waitUntilSyncReady(timeout: 60s) after the account signs in -> \(await patient.value)")

// 3. Large transfers need more: unmetered and unconstrained. A phone hotspot is expensive.
manual.setConnectivity(.connected(via: .wifi, isExpensive: true))
let upload = Task { try await environment.waitUntil(.largeTransfer, conditions: ["photos-selected"]) }
try manual.setCondition("photos-selected", isMet: true)
print("on a hotspot: unmet \(environment.status.unmetRequirements(.largeTransfer))")
manual.setConnectivity(.connected(via: .wiredEthernet))
let status = try await upload.value
print("large transfer allowed on \(status.connectivity.interface): \(status.isSuitableForLargeTransfer)")
