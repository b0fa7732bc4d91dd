import SyncGateCore

#if os(Linux)
    import Dispatch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// A `NETLINK_KOBJECT_UEVENT` socket subscribed to the kernel's uevent broadcasts, read by a dispatch
    /// source on a private serial queue, so no thread of the cooperative pool ever blocks on it.
    ///
    /// Each wake-up drains the socket without blocking and hands the datagrams to the handler in one
    /// batch, so a burst of events costs one handler call. Only datagrams sent by the kernel (netlink
    /// port 0) are delivered. When the socket's buffer overflowed (`ENOBUFS`), events were lost and
    /// the handler is told so; the owner should then re-read whatever it follows. Nothing runs while
    /// no event arrives. ``cancel()`` (or deinit) stops the source, which then closes the socket.
    package final class UEventSocket: Sendable {
        /// A failure to open or bind the socket, with the `errno` the call set.
        package struct OpenError: Error, Sendable, Hashable, CustomStringConvertible {
            /// The system call that failed: `socket` or `bind`.
            package var operation: String
            /// The `errno` it set.
            package var code: Int32

            /// A one-line explanation.
            package var description: String { "uevent socket: \(operation) failed: \(SystemErrorText.described(code))" }
        }

        /// `NETLINK_KOBJECT_UEVENT` from `<linux/netlink.h>`.
        static let netlinkKObjectUEvent: Int32 = 15
        /// The multicast group of the kernel's own uevents (udev re-broadcasts on group 2).
        static let kernelGroup: UInt32 = 1
        /// `sizeof(struct sockaddr_nl)`: family (u16), pad (u16), port id (u32), groups (u32).
        static let addressLength = 12
        /// The receive buffer per datagram; kernel uevents are at most 2 KiB, libudev's 8 KiB.
        static let datagramCapacity = 16_384
        /// The most datagrams read in one wake-up before yielding the queue; the source fires again.
        static let maximumBatch = 256

        // Dispatch sources may be used from any thread, but libdispatch on Linux does not mark them Sendable.
        nonisolated(unsafe) private let source: any DispatchSourceRead

        /// Opens and binds the socket, then starts reading on `queue`.
        ///
        /// - Parameter handler: called on `queue` with the datagrams of one wake-up, and whether some
        ///   were lost to a buffer overflow.
        /// - Throws: ``OpenError`` when the socket cannot be opened or bound (for example in a sandbox
        ///   that forbids netlink).
        package init(
            queue: DispatchQueue,
            handler: @escaping @Sendable (_ datagrams: [[UInt8]], _ overflowed: Bool) -> Void
        ) throws(OpenError) {
            let descriptor = socket(
                AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Self.netlinkKObjectUEvent)
            guard descriptor >= 0 else { throw OpenError(operation: "socket", code: errno) }
            var address = [UInt8](repeating: 0, count: Self.addressLength)
            address.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: UInt16(AF_NETLINK), toByteOffset: 0, as: UInt16.self)
                raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)  // port id: kernel assigns
                raw.storeBytes(of: Self.kernelGroup, toByteOffset: 8, as: UInt32.self)
            }
            let bound = address.withUnsafeBytes { raw in
                bind(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            guard bound == 0 else {
                let code = errno
                close(descriptor)
                throw OpenError(operation: "bind", code: code)
            }
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler {
                let (datagrams, overflowed) = Self.drain(descriptor)
                if !datagrams.isEmpty || overflowed {
                    handler(datagrams, overflowed)
                }
            }
            source.setCancelHandler {
                close(descriptor)
            }
            source.resume()
        }

        deinit {
            source.cancel()
        }

        /// Stops reading and closes the socket; the handler is not called afterwards.
        package func cancel() {
            source.cancel()
        }

        /// Reads every datagram queued on the socket, up to ``maximumBatch``, without blocking.
        private static func drain(_ descriptor: Int32) -> (datagrams: [[UInt8]], overflowed: Bool) {
            var datagrams: [[UInt8]] = []
            var overflowed = false
            var buffer = [UInt8](repeating: 0, count: datagramCapacity)
            var address = [UInt8](repeating: 0, count: addressLength)
            for _ in 0..<maximumBatch {
                var addressLength = socklen_t(Self.addressLength)
                let count = buffer.withUnsafeMutableBytes { bytes in
                    address.withUnsafeMutableBytes { raw in
                        recvfrom(
                            descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT),
                            raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &addressLength)
                    }
                }
                if count < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == ENOBUFS {
                        overflowed = true
                        continue
                    }
                    break  // EAGAIN: drained; anything else: wait for the next wake-up
                }
                let senderPort = address.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
                guard senderPort == 0 else { continue }  // not from the kernel
                datagrams.append(Array(buffer[..<count]))
            }
            return (datagrams, overflowed)
        }
    }
#endif
