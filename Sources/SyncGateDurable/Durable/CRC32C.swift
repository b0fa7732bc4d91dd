/// CRC-32C (Castagnoli), the checksum of each journal record.
enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        return crc
    }

    /// The starting value of an incremental checksum.
    static let initial: UInt32 = 0xFFFF_FFFF

    /// Folds `bytes` into an incremental checksum.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        return crc
    }

    /// The checksum from an incremental value.
    static func finish(_ crc: UInt32) -> UInt32 {
        crc ^ 0xFFFF_FFFF
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        finish(update(initial, bytes))
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
