/// Where to watch while waiting for a socket path to be created, and what a creation in the watched
/// directory means: a pure value for ``SocketPathWatch``.
///
/// The watch is on the deepest directory of the path that exists. A creation there of the path's next
/// component moves the watch one directory down (and, when that one already holds the next component,
/// further down); a creation of the socket's own name in its directory means the socket appeared.
package struct SocketPathPlan: Sendable, Equatable {
    /// The path's components, the socket's name last; the path is absolute.
    package let components: [String]
    /// How many leading components form the watched directory (0: the root).
    package private(set) var depth: Int

    /// What a creation in the watched directory calls for.
    package enum Step: Sendable, Equatable {
        /// Not the next component: keep waiting.
        case ignore
        /// The next directory appeared: watch it (``directory``) instead.
        case descend
        /// The socket itself appeared.
        case appeared
    }

    /// A plan for an absolute `path`, watching its deepest existing directory; `nil` for a relative path
    /// or one without a name.
    package init?(path: String, exists: (String) -> Bool) {
        guard path.hasPrefix("/") else { return nil }
        components = path.split(separator: "/").map(String.init)
        guard !components.isEmpty else { return nil }
        depth = 0
        while depth < components.count - 1, exists(Self.join(components.prefix(depth + 1))) { depth += 1 }
    }

    /// The directory to watch.
    package var directory: String { Self.join(components.prefix(depth)) }

    /// The name whose creation in ``directory`` matters next.
    package var nextName: String { components[depth] }

    /// The whole path: the socket's.
    package var path: String { Self.join(components[...]) }

    /// ``nextName`` in ``directory``.
    package var nextPath: String { Self.join(components.prefix(depth + 1)) }

    /// Whether the watched directory is the socket's own.
    package var isAtSocketDirectory: Bool { depth == components.count - 1 }

    /// What the creation of `name` in the watched directory means; on ``Step/descend`` the plan now
    /// watches the directory one level down.
    package mutating func created(_ name: String) -> Step {
        guard name == nextName else { return .ignore }
        if isAtSocketDirectory { return .appeared }
        depth += 1
        return .descend
    }

    private static func join(_ parts: ArraySlice<String>) -> String {
        "/" + parts.joined(separator: "/")
    }
}
