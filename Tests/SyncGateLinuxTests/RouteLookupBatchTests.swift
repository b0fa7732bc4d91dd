#if os(Linux)
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux
    @testable import SyncGateWire

    @Suite(.timeLimit(.minutes(1)))
    struct RouteLookupBatchTests {
        static let ipv4: [UInt8] = [1, 1, 1, 1]
        static let ipv6: [UInt8] = [0x26, 0x06, 0x47, 0x00, 0x47, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x11]

        @Test func carriesEachLookupWithItsOwnSequence() throws {
            var batch = try #require(RouteLookupBatch(destinations: [Self.ipv4, Self.ipv6]))
            var next: UInt32 = 40
            batch.renumber {
                next += 1
                return next
            }
            #expect(batch.sequences == [41, 42])
            let expected =
                try #require(NetlinkRequest.routeLookup(destination: Self.ipv4, sequence: 41))
                + #require(NetlinkRequest.routeLookup(destination: Self.ipv6, sequence: 42))
            #expect(batch.bytes == expected)
            let datagram = NetlinkMessage.parse(batch.bytes)
            #expect(!datagram.isMalformed)
            #expect(datagram.messages.map(\.type) == [Netlink.MessageType.getRoute, Netlink.MessageType.getRoute])
        }

        @Test(arguments: [[[UInt8]]]([[], [[1, 2, 3]], [[1, 1, 1, 1], [1, 2, 3, 4, 5]]]))
        func refusesNoDestinationOrOneOfAnotherLength(_ destinations: [[UInt8]]) {
            #expect(RouteLookupBatch(destinations: destinations) == nil)
        }

        @Test func oneDatagramGetsTheAnswersOfSeparateLookups() throws {
            let queries = try NetlinkQueryClient()
            defer { queries.close() }
            var batch = try #require(RouteLookupBatch(destinations: [Self.ipv4, Self.ipv6]))
            let together = queries.lookupRoutes(&batch)
            let apart = [queries.lookupRoute(to: Self.ipv4), queries.lookupRoute(to: Self.ipv6)]
            #expect(together == apart)
            #expect(!together.contains(.noAnswer))
            // Renumbered, the same prepared batch answers again.
            #expect(queries.lookupRoutes(&batch) == apart)
        }
    }
#endif
