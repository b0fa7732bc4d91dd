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

    /// Reads the facts of interface `name` under `sysfsRoot` (normally `/sys`).
    ///
    /// Missing files leave their fact empty; a name that is not a plain file name reads as no facts.
    /// - Parameters:
    ///   - name: the interface name (`IFLA_IFNAME`).
    ///   - sysfsRoot: the sysfs mount point; tests pass a fixture tree.
    ///   - linkKind: the link kind from the link message, if any.
    ///   - hardwareType: the `ARPHRD_*` type from the link message, used when `type` cannot be read.
    package static func read(
        interface name: String,
        sysfsRoot: String,
        linkKind: String? = nil,
        hardwareType: Int? = nil
    ) -> SysfsInterfaceFacts {
        var facts = SysfsInterfaceFacts(hardwareType: hardwareType, linkKind: linkKind)
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return facts }
        let directory = sysfsRoot + "/class/net/" + name
        if let uevent = readSmallFile(directory + "/uevent") {
            for line in uevent.split(whereSeparator: { $0 == "\n" }) where line.hasPrefix("DEVTYPE=") {
                facts.devType = String(line.dropFirst("DEVTYPE=".count))
            }
        }
        if let type = readSmallFile(directory + "/type"),
            let value = Int(type.filter { !$0.isWhitespace })
        {
            facts.hardwareType = value
        }
        facts.hasWirelessDirectory = exists(directory + "/wireless")
        facts.hasPhy80211Link = exists(directory + "/phy80211")
        facts.hasDeviceLink = exists(directory + "/device")
        if let resolved = realpath(directory, nil) {
            facts.isVirtual = String(cString: resolved).contains("/devices/virtual/")
            free(resolved)
        }
        return facts
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
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
