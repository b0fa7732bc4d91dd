/// A routing policy rule, decoded from an `RTM_NEWRULE` message (`struct fib_rule_hdr` and its `FRA_*`
/// attributes): only what tells whether the rule is a plain table lookup.
package struct NetlinkRule: Sendable, Hashable {
    /// `AF_INET` or `AF_INET6` (others exist, such as multicast routing's).
    package var family: UInt8
    /// The table the rule looks destinations up in (`FRA_TABLE`, else the header's byte).
    package var table: UInt32
    /// Whether the rule looks every destination up in ``table`` and nothing else: the action
    /// `FR_ACT_TO_TBL`, no flags (no inversion), no selector (source, destination, TOS, mark, interfaces,
    /// ports, user ids, ...), no suppression of the table's answers, no `goto`. Every attribute other than
    /// priority, table, protocol and unset suppressions counts as a selector.
    package var isPlainLookup: Bool

    /// Creates a rule from its parts.
    package init(family: UInt8, table: UInt32, isPlainLookup: Bool) {
        self.family = family
        self.table = table
        self.isPlainLookup = isPlainLookup
    }

    /// Decodes an `RTM_NEWRULE` or `RTM_DELRULE` message; `nil` for anything else.
    package static func decode(_ message: NetlinkMessage) -> NetlinkRule? {
        guard message.type == Netlink.MessageType.newRule || message.type == Netlink.MessageType.deleteRule
        else { return nil }
        let payload = message.payload
        guard payload.count >= Netlink.ruleHeaderSize, let flags = NetlinkBytes.load(UInt32.self, from: payload, at: 8)
        else { return nil }
        // family, dst_len, src_len, tos, table, res1, res2, action, flags.
        var rule = NetlinkRule(
            family: payload[0], table: UInt32(payload[4]),
            isPlainLookup: payload[1] == 0 && payload[2] == 0 && payload[3] == 0
                && payload[7] == Netlink.RuleAction.toTable && flags == 0)
        for attribute in NetlinkAttribute.parse(payload, from: Netlink.ruleHeaderSize) {
            switch attribute.type {
            case Netlink.RuleAttribute.table:
                if let table = attribute.uint32 { rule.table = table }
            case Netlink.RuleAttribute.priority, Netlink.RuleAttribute.protocolOrigin:
                break
            case Netlink.RuleAttribute.suppressPrefixLength, Netlink.RuleAttribute.suppressInterfaceGroup:
                if attribute.uint32 != UInt32.max { rule.isPlainLookup = false }
            default:
                rule.isPlainLookup = false
            }
        }
        return rule
    }
}
