import AppStoreEmulator
import ArgumentParser
import Foundation
import Ledger
import PurchaseServer

/// `storekeeper fill-ledger`: years of history in a new ledger, for measuring what every
/// path costs when the ledger is old (docs/PERFORMANCE.md, "Years of history").
struct FillLedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fill-ledger",
        abstract: "Fill a new ledger with years of realistic purchase history, fast.",
        discussion: """
            Writes players (one whale, a few heavy buyers, many who buy once), orders (one in eight never paid), \
            purchases of the sample catalog's every product kind with their grants, ledger entries and balances, \
            refunds whole and partial, subscription renewals, entitlements, client events, notifications, consents \
            and audit entries, spread over three years, through the server's schema and migrations, in bulk \
            (SQLite: prepared inserts in large transactions; PostgreSQL: COPY). The same seed gives the same \
            ledger. The database must be new: the fill writes past the ledger's rules. The last line printed is a \
            JSON summary: players, purchases, orders, refunds, renewals, entitlements, historyEvents, seconds, \
            whale (the player with the most purchases) and more.
            """
    )

    @Option(help: "The ledger to fill: sqlite:PATH or postgres://… (a new, empty database).")
    var database: String

    @Option(help: "How many purchases, renewals included.")
    var purchases: Int

    @Option(help: "The seed of every draw.")
    var seed: UInt64 = 1

    func validate() throws {
        guard purchases >= 0 else { throw ValidationError("--purchases must not be negative") }
    }

    func run() async throws {
        let store = try makeLedgerStore(url: database)
        let summary: HistoryFillSummary
        do {
            summary = try await HistoryFill.fill(
                store, purchases: purchases, products: Self.products(of: .sample), random: SplitMix64(seed: seed))
            try await store.close()
        } catch {
            try? await store.close()
            if let error = error as? HistoryFillError { throw ValidationError(error.description) }
            throw error
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }

    /// The catalog's products in the ledger's words.
    static func products(of catalog: ProductCatalog) -> [FillProduct] {
        catalog.products.compactMap { product in
            ProductKind(apple: product.type).map {
                FillProduct(
                    productId: product.productId, kind: $0, grants: product.grants, entitlement: product.entitlement,
                    periodDays: product.periodDays)
            }
        }
    }
}
