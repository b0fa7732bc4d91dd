import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DefaultRouteTableTests {
    static let ipv4 = """
        Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
        wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
        eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
        eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
        """

    @Test func picksTheLowestMetricDefaultRoute() {
        #expect(DefaultRouteTable.ipv4Interface(in: Self.ipv4) == "eth0")
    }

    @Test func ignoresRoutesThatAreNotDefaultOrNotUp() {
        let text = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            eth1\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0
            """
        #expect(DefaultRouteTable.ipv4Interface(in: text) == nil)
        #expect(DefaultRouteTable.ipv4Interface(in: "") == nil)
    }

    @Test func readsIPv6DefaultRoutes() {
        let zeros = String(repeating: "0", count: 32)
        let text = """
            \(zeros) 00 \(zeros) 00 \(zeros) ffffffff 00000001 00000000 00200200 lo
            \(zeros) 00 \(zeros) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00450003 wlan0
            \(zeros) 00 \(zeros) 00 fe800000000000000000000000000001 00000064 00000001 00000000 00450003 eth0
            fd000000000000000000000000000000 40 \(zeros) 00 \(zeros) 00000100 00000001 00000000 00000001 eth1
            """
        #expect(DefaultRouteTable.ipv6Interface(in: text) == "eth0")
    }
}
