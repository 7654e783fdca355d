#if canImport(Security)
    import Foundation
    import PurchaseSDK
    import Security

    /// A ``PurchaseJournal`` in the Keychain, which survives deleting and reinstalling the
    /// app: one generic password per record. Use it as the mirror of the app's file journal,
    /// `MirroredPurchaseJournal(primary: FilePurchaseJournal(url: …), mirror: KeychainPurchaseJournal())`,
    /// so that after a reinstall the records come back and the pipeline resumes them.
    ///
    /// It keeps what ``FilePurchaseJournal`` keeps: open orders and the closed orders the
    /// ``retention`` allows; the others' items are deleted when a closed record is written
    /// and at every load.
    ///
    /// Compiled only where Apple's Security framework is (not on Linux).
    public actor KeychainPurchaseJournal: PurchaseJournal {
        private let service: String
        /// How many closed orders stay in the Keychain.
        public nonisolated let retention: JournalRetention

        /// A journal under the Keychain service `service`, keeping the closed orders
        /// `retention` allows.
        public init(service: String = "StoreKeeper.PurchaseJournal", retention: JournalRetention = .standard) {
            self.service = service
            self.retention = retention
        }

        /// Every record the Keychain holds (after forgetting the closed records beyond the
        /// retention), and the items that did not decode.
        public func load() async throws -> JournalContents {
            let (all, damage) = try mirroredRecords()
            let forgotten = try forget(retention.idsToForget(in: all))
            let records = all.filter { !forgotten.contains($0.id) }
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
            if record.isClosed {
                let (records, _) = try mirroredRecords()
                try forget(retention.idsToForget(in: records))
            }
        }

        /// Deletes the items of `ids`; returns the ids.
        @discardableResult
        private func forget(_ ids: [String]) throws -> Set<String> {
            for id in ids {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                    kSecAttrAccount as String: id,
                ]
                let status = SecItemDelete(query as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else {
                    throw KeychainJournalError.status(status)
                }
            }
            return Set(ids)
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
