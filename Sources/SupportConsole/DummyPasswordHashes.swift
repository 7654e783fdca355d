/// The hashes an unknown or disabled name's password is checked against, one per bcrypt
/// cost, so that such a name takes as long to refuse as a wrong password. Each is made once
/// per process, off the cooperative threads, the first time a console with that cost needs it.
actor DummyPasswordHashes {
    /// The process's hashes.
    static let shared = DummyPasswordHashes()

    private var hashes: [Int: String] = [:]

    /// The dummy hash at `cost`.
    func hash(cost: Int) async -> String {
        if let hash = hashes[cost] { return hash }
        let hash = await StaffCredentials.hashInBackground(StaffCredentials.generatePassword(), cost: cost)
        // Two first callers may both have made one; the first stored stays.
        if let stored = hashes[cost] { return stored }
        hashes[cost] = hash
        return hash
    }
}
