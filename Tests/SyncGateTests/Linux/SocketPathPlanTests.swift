import SyncGate
import Testing

/// Where a wait for a socket path watches, and what each creation there means.
@Suite("Socket path plan", .timeLimit(.minutes(1)))
struct SocketPathPlanTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var existing: Set<String>
        /// The directory watched first.
        var watched: String
        /// Names created in the watched directory, each with what it must mean and the directory watched after.
        var creations: [(name: String, step: SocketPathPlan.Step, watched: String)]

        var testDescription: String { "\(path) with \(existing.sorted()) existing" }
    }

    @Test(
        arguments: [
            Case(
                path: "/run/dbus/system_bus_socket", existing: ["/run", "/run/dbus"], watched: "/run/dbus",
                creations: [("other", .ignore, "/run/dbus"), ("system_bus_socket", .appeared, "/run/dbus")]),
            Case(
                path: "/run/dbus/system_bus_socket", existing: ["/run"], watched: "/run",
                creations: [
                    ("user", .ignore, "/run"), ("dbus", .descend, "/run/dbus"),
                    ("system_bus_socket", .appeared, "/run/dbus"),
                ]),
            Case(
                path: "/a/b/c/sock", existing: [], watched: "/",
                creations: [
                    ("a", .descend, "/a"), ("c", .ignore, "/a"), ("b", .descend, "/a/b"), ("c", .descend, "/a/b/c"),
                    ("sock", .appeared, "/a/b/c"),
                ]),
            // The socket existing already (a stale one) does not count: only its creation does.
            Case(
                path: "/tmp/bus", existing: ["/tmp", "/tmp/bus"], watched: "/tmp",
                creations: [("bus", .appeared, "/tmp")]),
        ])
    func plan(_ test: Case) throws {
        var plan = try #require(SocketPathPlan(path: test.path, exists: test.existing.contains))
        #expect(plan.directory == test.watched)
        for creation in test.creations {
            #expect(plan.created(creation.name) == creation.step, "creating \(creation.name)")
            #expect(plan.directory == creation.watched, "after creating \(creation.name)")
        }
    }

    @Test(arguments: ["relative/bus", "", "/"])
    func aPathThatIsNotAbsoluteOrHasNoNameHasNoPlan(path: String) {
        #expect(SocketPathPlan(path: path, exists: { _ in true }) == nil)
    }
}
