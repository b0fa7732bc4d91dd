#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import SyncGateWire

    /// A non-blocking `NETLINK_ROUTE` socket bound to a set of multicast groups, with its receive buffer.
    ///
    /// Owned by one thread at a time; not thread-safe. Datagrams that do not come from the kernel
    /// (sender port id ≠ 0) are dropped.
    package final class NetlinkSocket {
        /// The outcome of one receive.
        package enum Reception {
            /// A datagram from the kernel.
            case datagram([UInt8])
            /// Nothing to read now.
            case wouldBlock
            /// The kernel dropped messages: `ENOBUFS`, or a datagram larger than the buffer.
            case overflow
            /// A datagram from another sender, dropped.
            case ignored
            /// Another error, with its `errno`.
            case failed(Int32)
        }

        /// The descriptor; -1 once closed.
        package private(set) var fileDescriptor: Int32
        private var buffer: [UInt8]

        /// Opens and binds a socket.
        /// - Parameters:
        ///   - groups: `RTMGRP_*` bits to subscribe to; 0 for a request-only socket.
        ///   - receiveBufferSize: `SO_RCVBUF` to request (forced when privileged), or `nil` to keep the default.
        ///   - bufferSize: the largest datagram read at once.
        package init(groups: UInt32, receiveBufferSize: Int32?, bufferSize: Int) throws(ConnectivityObserverError) {
            let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let fd = socket(AF_NETLINK, type, Netlink.protocolRoute)
            guard fd >= 0 else { throw ConnectivityObserverError(operation: "socket", code: errno) }
            fileDescriptor = fd
            buffer = [UInt8](repeating: 0, count: max(bufferSize, 4096))
            if var size = receiveBufferSize {
                let length = socklen_t(MemoryLayout<Int32>.size)
                if setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, length) != 0 {
                    _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, length)
                }
            }
            var address = Self.address(groups: groups)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(Netlink.socketAddressSize))
                }
            }
            guard bound == 0 else {
                let code = errno
                close()
                throw ConnectivityObserverError(operation: "bind", code: code)
            }
        }

        deinit {
            close()
        }

        /// Closes the descriptor (idempotent).
        package func close() {
            guard fileDescriptor >= 0 else { return }
            closeDescriptor(fileDescriptor)
            fileDescriptor = -1
        }

        /// Sends one request to the kernel; returns `errno` on failure, `nil` on success.
        package func send(_ bytes: [UInt8]) -> Int32? {
            var address = Self.address(groups: 0)
            let sent = bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fileDescriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(Netlink.socketAddressSize))
                    }
                }
            }
            return sent == bytes.count ? nil : (sent < 0 ? errno : Int32(EMSGSIZE))
        }

        /// Reads one datagram without blocking.
        package func receive() -> Reception {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let capacity = buffer.count
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(fileDescriptor, raw.baseAddress, raw.count, Int32(MSG_TRUNC), $0, &length)
                    }
                }
            }
            if count < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR: return .wouldBlock
                case ENOBUFS: return .overflow
                case let code: return .failed(code)
                }
            }
            if count > capacity { return .overflow }
            let sender = withUnsafeBytes(of: &address) { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
            guard sender == 0 else { return .ignored }
            return .datagram(Array(buffer[..<count]))
        }

        /// Waits until the socket is readable or `milliseconds` pass; returns whether it is readable.
        package func waitReadable(milliseconds: Int32) -> Bool {
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let result = poll(&descriptor, 1, milliseconds)
            return result > 0
        }

        /// A `sockaddr_nl` for the kernel (port id 0) with the given groups.
        private static func address(groups: UInt32) -> sockaddr_storage {
            var address = sockaddr_storage()
            withUnsafeMutableBytes(of: &address) { raw in
                raw.storeBytes(of: Netlink.addressFamily, toByteOffset: 0, as: UInt16.self)
                raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
                raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
            }
            return address
        }
    }

    /// Closes a descriptor; a free function so the socket's own `close()` does not shadow the system call.
    func closeDescriptor(_ fileDescriptor: Int32) {
        _ = close(fileDescriptor)
    }
#endif
