#if canImport(StoreKit) && canImport(Security)
    import Foundation
    import PurchaseSDK
    import Security

    /// A ``PurchaseJournal`` in the Keychain, which survives deleting and reinstalling the
    /// app: one generic password per record. Use it as the mirror of the app's file journal,
    /// `MirroredPurchaseJournal(primary: FilePurchaseJournal(url: …), mirror: KeychainPurchaseJournal())`,
    /// so that after a reinstall the records come back and the pipeline resumes them.
    ///
    /// Written against Apple's documented Security API; not compiled on Linux.
    public actor KeychainPurchaseJournal: PurchaseJournal {
        private let service: String

        /// A journal under the Keychain service `service`.
        public init(service: String = "StoreKeeper.PurchaseJournal") {
            self.service = service
        }

        /// Every record the Keychain holds, and the items that did not decode.
        public func load() async throws -> JournalContents {
            let (records, damage) = try mirroredRecords()
            return JournalContents(
                records: records.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, damage: damage)
        }

        /// Adds or replaces the record's Keychain item.
        public func write(_ record: PurchaseRecord) async throws {
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
