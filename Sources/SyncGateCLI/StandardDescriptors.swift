#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the standard descriptors' numbers out of the tool's own use when it starts with some closed.
///
/// Without it, the first descriptor the process opens takes a closed one's number: with stdout closed
/// (`syncgate status >&-`), the lines meant for stdout would go into whatever got descriptor 1 (a netlink
/// socket, an eventfd), and a daemon's log lines on a closed stderr into a file it opened next.
/// ``reserve()`` puts `/dev/null` on each closed one of 0, 1 and 2, opened for the direction that
/// descriptor is not used in: a write to stdout or stderr fails with EBADF, as it does on a closed
/// descriptor (so `status >&-` reports that it cannot write its output and exits 1), and so does a read
/// of stdin. A command that `run` or the daemon starts inherits them the same way.
package enum StandardDescriptors {
    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed: write-only on 0, read-only on
    /// 1 and 2. Call it before anything else opens a descriptor.
    package static func reserve() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            guard opened >= 0 else { continue }
            // The lowest free number: this one, since the lower ones are open by now.
            if opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
