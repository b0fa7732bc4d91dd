import Foundation
import Testing

@testable import SyncGateCLI

/// The wall-clock times `jobs` shows for a delay's end: whole seconds, never before the end, and not a
/// second late when the end falls on a whole second but the clocks drifted by microseconds.
struct DaemonWallTimeTests {
    @Test(arguments: [
        (99.5, Duration.milliseconds(500) + .nanoseconds(100), 100.0),
        (100.0, Duration.zero, 100),
        (99.5, .milliseconds(300), 100),
        (99.5, .microseconds(501_500), 101),
        (99.0, .seconds(2), 101),
    ])
    func aDelaysEndIsShownInWholeSeconds(now: Double, remaining: Duration, expected: Double) {
        let shown = DaemonService.wallTime(after: remaining, now: Date(timeIntervalSince1970: now))
        #expect(shown.timeIntervalSince1970 == expected)
    }
}
