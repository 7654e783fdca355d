/// What the subscription players did, kept on the devices' side: the family members'
/// phones (whose FAMILY_SHARED transactions entitle their player) and the counts the report
/// prints.
actor SubscriptionLog {
    private(set) var figures = SubscriptionFigures()
    /// Device id → the player on that phone, for the family members' phones.
    private(set) var familyPlayers: [String: String] = [:]

    /// Records that `player` is the family member on `deviceId`.
    func recordFamilyMember(_ player: String, deviceId: String) {
        familyPlayers[deviceId] = player
    }

    /// Counts with `update`.
    func count(_ update: @Sendable (inout SubscriptionFigures) -> Void) {
        update(&figures)
    }
}
