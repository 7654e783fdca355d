import Testing

@testable import Ledger

/// A migration, once shipped, is frozen text: a ledger migrated by an older release must
/// have run exactly the statements this build would run. Each migration's statements are
/// fingerprinted (FNV-1a, 64 bits, over the SQLite then the PostgreSQL statements); a
/// change to a shipped migration, such as SQL built from a live enum that gained a case,
/// changes its fingerprint and fails here. A new migration adds its line.
struct FrozenMigrationTests {
    /// The fingerprints of the shipped migrations, by version.
    private static let shipped: [Int64: UInt64] = [
        1: 0x007a_35a0_dbeb_57f2,
        2: 0xc827_1f86_7b6c_004c,
        3: 0x78ca_0f50_0ccc_60d5,
        4: 0xb86b_d0f1_fdc9_2e01,
        5: 0xddfe_4d4b_06ba_ff14,
        6: 0x1d44_72b2_a082_f735,
        7: 0x2ea4_f80a_d228_25e3,
        8: 0x2963_1220_1fab_677e,
        9: 0x77b3_bf70_b235_23f4,
        10: 0xe245_5c5b_6413_c0d4,
        11: 0xc1fd_5bb0_0142_adb5,
        12: 0x3511_339b_70f3_a726,
        13: 0xd59b_cb7a_3b07_284a,
        14: 0x4423_4c54_2212_eb94,
        15: 0xd35b_bf74_36f4_1cd2,
        16: 0x8068_18ba_537c_57ae,
        17: 0x5dbf_a73a_07f9_85e8,
        18: 0x877b_cdb4_6729_c138,
        19: 0xa643_d0c8_3615_d83c,
        20: 0x874a_80d2_eb66_125b,
        21: 0xb606_761f_b776_25f2,
        22: 0xe8f3_2bdb_8c5d_c63d,
        23: 0xe546_6aaa_f459_a958,
        24: 0xa0b7_eea7_a918_9010,
        25: 0x5eb4_1b17_4378_fe38,
    ]

    @Test("every shipped migration's statements are the text that shipped")
    func shippedMigrationsAreUnchanged() {
        let versions = LedgerSchema.migrations.map(\.version)
        #expect(versions == Array(1...Int64(versions.count)), "versions increase by one from 1")
        for migration in LedgerSchema.migrations {
            let fingerprint = Self.fingerprint(migration)
            #expect(
                Self.shipped[migration.version] == fingerprint,
                "migration \(migration.version) (\(migration.name)) is \(String(fingerprint, radix: 16))")
        }
    }

    /// FNV-1a over the statements' UTF-8, each followed by a zero byte, and a separator
    /// between the SQLite and the PostgreSQL lists (and, when it has any, before the
    /// PostgreSQL indexes built concurrently, and before its PostgreSQL extensions and
    /// backfills, each backfill's lock after its batch, and its SQLite feature check).
    private static func fingerprint(_ migration: LedgerMigration) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        for statement in migration.sqlite {
            statement.utf8.forEach(add)
            add(0)
        }
        add(0xff)
        for statement in migration.postgres {
            statement.utf8.forEach(add)
            add(0)
        }
        if !migration.postgresConcurrentIndexes.isEmpty {
            add(0xfe)
            for index in migration.postgresConcurrentIndexes {
                index.createStatement.utf8.forEach(add)
                add(0)
            }
        }
        if !migration.postgresExtensions.isEmpty || !migration.postgresBackfills.isEmpty
            || migration.sqliteNeedsTrigramSearch
        {
            add(0xfd)
            let backfills = migration.postgresBackfills.flatMap { [$0.batch] + ($0.lock.map { [$0] } ?? []) }
            for statement in migration.postgresExtensions + backfills {
                statement.utf8.forEach(add)
                add(0)
            }
            add(migration.sqliteNeedsTrigramSearch ? 1 : 0)
        }
        return hash
    }
}
