#if os(Linux)
    import Foundation
    import SyncGateCLI
    import Testing

    /// `/proc/PID/stat` as the daemon reads it to tell a job's processes (their group, whether they live)
    /// and to recognise a command after a crash (its start time).
    @Suite(.timeLimit(.minutes(1)))
    struct ProcessGroupStatTests {
        /// A line of `/proc/PID/stat` with `name` as the command and the given state, parent, group and
        /// start time; the other fields as the kernel writes them.
        static func line(pid: Int, name: String, state: String, parent: Int, group: Int, start: UInt64) -> String {
            "\(pid) (\(name)) \(state) \(parent) \(group) 3494 0 -1 4194304 99 0 0 0 0 0 0 0 20 0 1 0 \(start) "
                + "3133440 390 18446744073709551615 94292354768896 94292354788777 140725831693696 0 0 0 0 0 0 0 0 0 17 "
                + "0 0 0 0 0 0\n"
        }

        /// The command name may hold spaces and parentheses: fields are counted from the last `)`.
        @Test(arguments: [
            ("cat", "R", true), ("sh", "S", true), ("a b", "D", true), ("x) S 1 2 (y", "Z", false),
            (")", "X", false), ("sleep", "T", true), ("zz\u{0600}", "S", true), ("a\u{0301})\u{0600}", "R", true),
        ])
        func fieldsAreReadAfterTheCommandName(name: String, state: String, living: Bool) throws {
            let stat = try #require(
                ProcessGroup.Stat(
                    Self.line(pid: 4242, name: name, state: state, parent: 7, group: 4240, start: 403_519)))
            #expect(stat.pid == 4242)
            #expect(stat.state == Character(state))
            #expect(stat.parent == 7)
            #expect(stat.group == 4240)
            #expect(stat.startTime == 403_519)
            #expect(stat.isLiving == living)
        }

        /// A command name that is not UTF-8 (the kernel copies the executable's name as bytes).
        @Test func aNameThatIsNotUnicode() throws {
            let line = Self.line(pid: 4242, name: "n", state: "S", parent: 7, group: 4240, start: 9)
            var bytes = Array(line.utf8)
            bytes.insert(contentsOf: [0xFF, 0x29, 0xE9], at: 7)
            let stat = try #require(ProcessGroup.Stat(bytes: bytes))
            #expect(stat.group == 4240 && stat.startTime == 9 && stat.isLiving)
        }

        /// Text that is not a stat line is refused, not misread.
        @Test(arguments: [
            "", "4242", "4242 (sh) S 1 2", "x (sh) S 1 2 3 0 -1 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19",
        ])
        func whatIsNotAStatLineIsRefused(text: String) {
            #expect(ProcessGroup.Stat(text) == nil)
        }

        /// This process's own line: its group and start time are what the kernel says, and it lives.
        @Test func thisProcessReadsItself() throws {
            let stat = try #require(ProcessGroup.Stat.read(getpid()))
            #expect(stat.pid == getpid())
            #expect(stat.group == getpgrp())
            #expect(stat.parent == getppid())
            #expect(stat.isLiving)
            #expect(stat.startTime > 0)
        }
    }
#endif
