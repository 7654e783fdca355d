#if canImport(StoreKit) && canImport(Security)
    import Foundation
    import PurchaseSDK
    import Security

    /// A ``PurchaseJournal`` that keeps every record in a file journal and mirrors it to the
    /// Keychain, which survives deleting and reinstalling the app: after a reinstall the
    /// records come back from the Keychain and the pipeline resumes them.
    ///
    /// Written against Apple's documented Security API; not compiled on Linux.
    public actor KeychainMirroredJournal: PurchaseJournal {
        private let file: any PurchaseJournal
        private let service: String

        /// Mirrors `file` under the Keychain service `service` (one generic password per record).
        public init(file: any PurchaseJournal, service: String = "StoreKeeper.PurchaseJournal") {
            self.file = file
            self.service = service
        }

        /// The file's records, and those only the Keychain still has (a reinstall), newest
        /// version of each.
        public func load() async throws -> JournalContents {
            var contents = try await file.load()
            var byId = Dictionary(contents.records.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            let (mirrored, damage) = try mirroredRecords()
            contents.damage += damage
            for record in mirrored where (byId[record.id]?.updatedAt ?? .distantPast) < record.updatedAt {
                byId[record.id] = record
                try await file.write(record)
            }
            contents.records = byId.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            return contents
        }

        /// Writes the file first, then the Keychain item.
        public func write(_ record: PurchaseRecord) async throws {
            try await file.write(record)
            let data = try JSONEncoder().encode(record)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: record.id,
            ]
            let update = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
            if update == errSecItemNotFound {
                var item = query
                item[kSecValueData as String] = data
                item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                let added = SecItemAdd(item as CFDictionary, nil)
                guard added == errSecSuccess else { throw KeychainJournalError.status(added) }
            } else if update != errSecSuccess {
                throw KeychainJournalError.status(update)
            }
        }

        /// The Keychain's records, and the items that did not decode.
        private func mirroredRecords() throws -> ([PurchaseRecord], [JournalDamage]) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnData as String: true,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return ([], []) }
            guard status == errSecSuccess, let items = result as? [Data] else {
                throw KeychainJournalError.status(status)
            }
            var records: [PurchaseRecord] = []
            var damage: [JournalDamage] = []
            for (index, item) in items.enumerated() {
                do {
                    records.append(try JSONDecoder().decode(PurchaseRecord.self, from: item))
                } catch {
                    damage.append(
                        JournalDamage(
                            line: index + 1, reason: "undecodable_keychain_item", recordId: nil,
                            text: String(decoding: item, as: UTF8.self)))
                }
            }
            return (records, damage)
        }
    }

    /// A Keychain call failed with this `OSStatus`.
    public enum KeychainJournalError: Error, Hashable, Sendable {
        case status(OSStatus)
    }
#endif
