#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The facts about one interface that sysfs (`<root>/class/net/<name>/`) and the link message give.
package struct SysfsInterfaceFacts: Sendable, Hashable {
    /// `DEVTYPE=` from `uevent` (`wlan`, `wwan`, `bluetooth`, `bridge`, `bond`, `vlan`, `wireguard`, …).
    package var devType: String?
    /// Whether the `wireless/` directory exists (cfg80211 and wireless extensions create it).
    package var hasWirelessDirectory: Bool
    /// Whether the `phy80211` link exists.
    package var hasPhy80211Link: Bool
    /// Whether the `device` link exists (the interface is backed by a bus device: PCI, USB, SDIO…).
    package var hasDeviceLink: Bool
    /// Whether the interface directory resolves under `devices/virtual/`.
    package var isVirtual: Bool
    /// The `type` file: an `ARPHRD_*` value.
    package var hardwareType: Int?
    /// The rtnetlink link kind (`IFLA_INFO_KIND`), which sysfs does not show.
    package var linkKind: String?

    /// Creates facts from their parts.
    package init(
        devType: String? = nil,
        hasWirelessDirectory: Bool = false,
        hasPhy80211Link: Bool = false,
        hasDeviceLink: Bool = false,
        isVirtual: Bool = false,
        hardwareType: Int? = nil,
        linkKind: String? = nil
    ) {
        self.devType = devType
        self.hasWirelessDirectory = hasWirelessDirectory
        self.hasPhy80211Link = hasPhy80211Link
        self.hasDeviceLink = hasDeviceLink
        self.isVirtual = isVirtual
        self.hardwareType = hardwareType
        self.linkKind = linkKind
    }

    /// Reads the facts of interface `name` under `sysfsRoot` (normally `/sys`); `name` is taken as its
    /// UTF-8 bytes (the reader uses the byte form below, with the kernel's bytes).
    package static func read(
        interface name: String,
        sysfsRoot: String,
        linkKind: String? = nil,
        hardwareType: Int? = nil
    ) -> SysfsInterfaceFacts {
        read(interface: Array(name.utf8), sysfsRoot: sysfsRoot, linkKind: linkKind, hardwareType: hardwareType)
    }

    /// Reads the facts of the interface named by the bytes `name` under `sysfsRoot` (normally `/sys`).
    ///
    /// The path is built from the bytes exactly as the kernel gave them (`IFLA_IFNAME`, see
    /// ``NetlinkLink/nameBytes``): an interface name need not be UTF-8, and a name repaired into valid
    /// UTF-8 would name another directory. Missing files leave their fact empty; a name that is not a
    /// plain file name (empty, `.`, `..`, or holding `/` or NUL) reads as no facts.
    /// - Parameters:
    ///   - name: the interface name's bytes, without a terminating NUL.
    ///   - sysfsRoot: the sysfs mount point; tests pass a fixture tree.
    ///   - linkKind: the link kind from the link message, if any.
    ///   - hardwareType: the `ARPHRD_*` type from the link message, used when `type` cannot be read.
    package static func read(
        interface name: [UInt8],
        sysfsRoot: String,
        linkKind: String? = nil,
        hardwareType: Int? = nil
    ) -> SysfsInterfaceFacts {
        var facts = SysfsInterfaceFacts(hardwareType: hardwareType, linkKind: linkKind)
        let dot = UInt8(ascii: ".")
        guard !name.isEmpty, name != [dot], name != [dot, dot], !name.contains(UInt8(ascii: "/")),
            !name.contains(0)
        else { return facts }
        let directory = Array(sysfsRoot.utf8) + Array("/class/net/".utf8) + name
        func path(_ suffix: String) -> [UInt8] { directory + Array(suffix.utf8) }
        if let uevent = readSmallFile(path("/uevent")) {
            for line in uevent.split(whereSeparator: { $0 == "\n" }) where line.hasPrefix("DEVTYPE=") {
                facts.devType = String(line.dropFirst("DEVTYPE=".count))
            }
        }
        if let type = readSmallFile(path("/type")),
            let value = Int(type.filter { !$0.isWhitespace })
        {
            facts.hardwareType = value
        }
        facts.hasWirelessDirectory = exists(path("/wireless"))
        facts.hasPhy80211Link = exists(path("/phy80211"))
        facts.hasDeviceLink = exists(path("/device"))
        withCPath(directory) { directory in
            if let resolved = realpath(directory, nil) {
                facts.isVirtual = String(cString: resolved).contains("/devices/virtual/")
                free(resolved)
            }
        }
        return facts
    }

    /// Calls `body` with `path` as a NUL-terminated C string, its bytes unchanged.
    private static func withCPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    private static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return withCPath(path) { lstat($0, &info) } == 0
    }

    private static func readSmallFile(_ path: [UInt8]) -> String? {
        let fd = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { readDescriptor(fd, into: $0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}

/// Reads once from a descriptor into a buffer; a free function so the `read` method above does not
/// shadow the system call.
private func readDescriptor(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}
