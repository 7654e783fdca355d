import Foundation

extension AppStoreEmulator {
    /// The `notificationUUID` of the next notification: random, as Apple's, unless the
    /// faults in force carry a seed; then drawn from the seed and the number of
    /// notifications issued so far, so that a seeded run that issues its notifications in
    /// the same order gets the same UUIDs, and with them the same notification faults
    /// (``NotificationFaults`` decides by UUID).
    ///
    /// Unique as long as each notification is committed before the next is made (every
    /// caller commits at once, on the actor), since the count then grows by one each time.
    func nextNotificationUUID() -> String {
        guard let seed = faultInjector.faults.seed else { return UUID().uuidString.lowercased() }
        var generator = SplitMix64(seed: seed ^ 0x4E07_1F1C_A710_0000 ^ UInt64(state.notificationOrder.count) << 1)
        var bytes = withUnsafeBytes(of: (generator.next(), generator.next())) { Array($0) }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }
}
