#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    @testable import SyncGateCore

    /// The real `timerfd` behind `WallClockSetWatch`: armed on `CLOCK_REALTIME`, at an absolute time,
    /// to be cancelled when the clock is set. The machine's clock is never set: the test reads how the
    /// kernel holds the timer (`timerfd_gettime`, `/proc/self/fdinfo`).
    @Suite("Wall-clock set watch", .timeLimit(.minutes(1)))
    struct WallClockSetWatchTests {
        /// The fields of the descriptor's `/proc/self/fdinfo` entry.
        static func fdinfo(_ descriptor: Int32) throws -> [String: String] {
            let text = try String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return fields
        }

        @Test("the timer is a CLOCK_REALTIME timerfd armed with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET")
        func armedWithCancelOnSet() throws {
            let watch = try #require(WallClockSetWatch())
            let fields = try Self.fdinfo(watch.descriptor)
            #expect(fields["clockid"] == "\(CLOCK_REALTIME)")
            // The kernel prints the flags in octal: 01 is TFD_TIMER_ABSTIME, 02 TFD_TIMER_CANCEL_ON_SET.
            let flags = try #require(fields["settime flags"].flatMap { Int($0, radix: 8) })
            #expect(flags == 3)
            #expect(flags == Int(WallClockSetWatch.armFlags))
            let current = try #require(WallClockSetWatch.setting(of: watch.descriptor))
            // Armed years ahead, not periodic.
            #expect(current.it_value.tv_sec > 365 * 86_400)
            #expect(current.it_interval.tv_sec == 0 && current.it_interval.tv_nsec == 0)
        }

        @Test("a read of the armed timer that has not fired finds nothing and reports no set")
        func quietWhileNobodySetsTheClock() throws {
            let watch = try #require(WallClockSetWatch())
            #expect(WallClockSetWatch.drain(watch.descriptor) == false)
            #expect(errno == EAGAIN)
            // Still armed with the same flags after the read.
            let flags = try #require(try Self.fdinfo(watch.descriptor)["settime flags"].flatMap { Int($0, radix: 8) })
            #expect(flags == 3)
        }

        @Test("SystemWallClock() hears the process's shared watch, a timer armed like any other")
        func systemWallClockListensToTheSharedWatch() throws {
            let shared = try #require(WallClockSetWatch.shared)
            let flags = try #require(try Self.fdinfo(shared.descriptor)["settime flags"].flatMap { Int($0, radix: 8) })
            #expect(flags == Int(WallClockSetWatch.armFlags))
            // Other tests subscribe and leave meanwhile: only that this stream is counted is certain.
            let stream = SystemWallClock().changes()
            #expect(shared.subscriberCount >= 1)
            _ = stream
        }

        /// The shared watch lives as long as the process, and every scheduler on the system's wall clock
        /// subscribes: its streams stayed in the watch after they ended, one per scheduler ever made.
        @Test("a stream that ends leaves the watch: dropped, or its consumer cancelled")
        func endedStreamsLeave() async throws {
            let watch = try #require(WallClockSetWatch())
            do {
                let dropped = watch.changes()
                #expect(watch.subscriberCount == 1)
                _ = dropped
            }
            #expect(watch.subscriberCount == 0)
            let stream = watch.changes()
            let consumer = Task { for await _ in stream {} }
            #expect(watch.subscriberCount == 1)
            consumer.cancel()
            await consumer.value
            #expect(watch.subscriberCount == 0)
        }

        @Test("releasing the watch finishes its streams")
        func releaseFinishesStreams() async throws {
            var watch = WallClockSetWatch()
            let stream = try #require(watch).changes()
            watch = nil
            for await _ in stream { Issue.record("no set was expected") }
        }
    }
#endif
