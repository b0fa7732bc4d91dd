#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTesting
    import Testing

    /// Whether the durable attack tests that need root (a tmpfs) and a C compiler (the fdatasync shim)
    /// can run here, and the helpers they share.
    enum DurableAttackSupport {
        /// A setup step that failed.
        struct Failure: Error, CustomStringConvertible {
            var message: String
            var description: String { message }
        }

        /// `SYNCGATE_REQUIRE_DURABLE_ATTACKS=1` turns a skip into a failure (CI sets it).
        static let isRequired = ProcessInfo.processInfo.environment["SYNCGATE_REQUIRE_DURABLE_ATTACKS"] == "1"

        /// The C compiler that builds the shim.
        static let compilerPath: String? = ["/usr/bin/cc", "/usr/local/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }

        /// Why the tests cannot run, or `nil` when they can.
        static let unavailableReason: String? = {
            if geteuid() != 0 { return "they need root to mount a small tmpfs" }
            if compilerPath == nil { return "they need a C compiler, cc, to build the fdatasync shim" }
            if DurableCrashTests.probePath == nil {
                return "syncgate-durable-probe was not found: run `swift build` first or set SYNCGATE_DURABLE_PROBE"
            }
            return nil
        }()

        /// Whether the suite runs: it can, or it must (and then fails with the reason).
        static let isEnabled = unavailableReason == nil || isRequired

        /// The message shown when the suite is skipped.
        static var skipComment: Comment {
            Comment(
                rawValue: "Durable attack tests on a tmpfs and with a failing fdatasync skipped: "
                    + "\(unavailableReason ?? ""). Run as root with cc; SYNCGATE_REQUIRE_DURABLE_ATTACKS=1 makes "
                    + "this a failure.")
        }

        /// Fails the test with the reason when the suite was required but cannot run.
        static func requireAvailable() throws {
            if let unavailableReason { throw Failure(message: "required but unavailable: \(unavailableReason)") }
        }

        /// The shim's source: `fdatasync` fails with `EIO` on calls number FAIL_AFTER + 1 to
        /// FAIL_AFTER + FAIL_COUNT of the process (`SYNCGATE_SHIM_FAIL_AFTER`, `SYNCGATE_SHIM_FAIL_COUNT`).
        static let shimSource = """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <errno.h>
            #include <stdlib.h>
            static int calls;
            int fdatasync(int fd) {
                static int (*real)(int);
                if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
                const char *after = getenv("SYNCGATE_SHIM_FAIL_AFTER");
                const char *count = getenv("SYNCGATE_SHIM_FAIL_COUNT");
                int number = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
                int first = after ? atoi(after) + 1 : 1 << 30;
                int last = first + (count ? atoi(count) : 1 << 29) - 1;
                if (number >= first && number <= last) { errno = EIO; return -1; }
                return real(fd);
            }
            """

        /// Builds the shim into `directory` and returns its path.
        static func buildShim(in directory: String) throws -> String {
            guard let compilerPath else { throw Failure(message: "no C compiler") }
            let source = directory + "/fdatasync-shim.c"
            let library = directory + "/fdatasync-shim.so"
            try shimSource.write(toFile: source, atomically: false, encoding: .utf8)
            try SpawnedProcess.run(
                compilerPath, ["-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"], timeout: .seconds(30))
            return library
        }

        /// The journal of a store directory, read by the independent reader; no file reads as empty.
        static func read(_ directory: String) throws -> IndependentJournalReader {
            let path = directory + "/journal"
            guard FileManager.default.fileExists(atPath: path) else { return IndependentJournalReader([]) }
            return IndependentJournalReader(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }
#endif
