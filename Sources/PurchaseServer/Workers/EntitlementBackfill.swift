import AppStoreModel
import Foundation
import Ledger
import Logging

/// Gives the purchases delivered before the ledger kept entitlements (ledger migration 6)
/// the entitlement their product unlocks now, so that an upgraded server lists a level
/// pack bought last year and a restore finds it.
///
/// From what the ledger recorded of each chain's latest purchase, with Apple's data of the
/// time dated by the purchase (anything Apple signs later outranks it): a non-consumable
/// is permanent; a non-renewing period lasts ``CatalogProduct/periodDays`` and stacks on
/// the player's entitling periods of the same entitlement bought no later (the ledger
/// decides under the stack's lock; purchases are taken oldest first; never on a period
/// bought since, which would give the old one time it never paid for); an
/// auto-renewable subscription's
/// expiry was not recorded, so its entitlement starts lapsed at its latest purchase, where
/// the reconciler's subscription check asks Apple for its status (or its next renewal
/// sets it). A refunded purchase's entitlement is `refunded`. Ownership is recorded as
/// `PURCHASED` (the ledger did not keep `inAppOwnershipType`).
///
/// Runs until nothing is left, then never again in this process; a pass that fails is
/// tried again. Several instances may run it at once: an entitlement is created once. A
/// complete pass is remembered in the ledger (the checkpoint ``checkpointName``, with the
/// catalog's products that unlock something and what each unlocks): every delivery since
/// creates its entitlement, so a later start with the same catalog has nothing to find and
/// does not walk those products' purchases again (on a ledger of ten million purchases one
/// read of that walk took over 30 s on PostgreSQL). A catalog that changes what a product
/// unlocks walks them again.
actor EntitlementBackfill {
    let store: any LedgerStore
    let catalog: ProductCatalog
    let logger: Logger
    private var finished = false

    /// How many purchases one read returns.
    static let pageSize = 200
    /// The ledger checkpoint that names the catalog a complete pass ran for.
    static let checkpointName = "entitlement_backfill"

    init(store: any LedgerStore, catalog: ProductCatalog, logger: Logger) {
        self.store = store
        self.catalog = catalog
        self.logger = logger
    }

    /// Creates every missing entitlement; how many it created (0 once finished).
    func run() async throws -> Int {
        guard !finished else { return 0 }
        let unlocking = catalog.products.compactMap { product in
            product.entitlement.map { "\(product.productId)=\($0)" }
        }.sorted().joined(separator: "\n")
        if try await store.checkpoint(Self.checkpointName) == unlocking {
            finished = true
            return 0
        }
        let productIds = Set(catalog.products.filter { $0.entitlement != nil }.map(\.productId))
        var created = 0
        var cursor: Purchase?
        while true {
            let page = try await store.purchasesWithoutEntitlement(
                productIds: productIds, after: cursor, limit: Self.pageSize)
            for purchase in page {
                guard let grant = try await grant(for: purchase) else { continue }
                if try await store.backfillEntitlement(grant, of: purchase) != nil { created += 1 }
            }
            guard page.count == Self.pageSize else { break }
            cursor = page.last
        }
        try await store.setCheckpoint(Self.checkpointName, value: unlocking)
        finished = true
        if created > 0 {
            logger.notice(
                "created the entitlements of purchases delivered before entitlements were kept",
                metadata: ["count": "\(created)"])
        }
        return created
    }

    /// What the purchase's product unlocks, from the ledger's record of it; `nil` for a
    /// product that unlocks nothing (any more).
    private func grant(for purchase: Purchase) async throws -> EntitlementGrant? {
        guard let product = catalog.product(purchase.productId), let entitlementId = product.entitlement,
            let kind = ProductKind(apple: product.type)
        else {
            return nil
        }
        let first = try await store.purchase(store: purchase.store, transactionId: purchase.originalTransactionId)
        var grant = EntitlementGrant(
            entitlementId: entitlementId, productType: kind,
            state: purchase.status == .refunded ? .refunded : .active,
            since: first?.purchaseDate ?? purchase.purchaseDate, until: nil, ownership: .purchased,
            signedAt: purchase.purchaseDate, reason: "backfill")
        switch product.type {
        case .nonRenewing:
            grant.stackSeconds = Int64(product.periodDays ?? 0) * 86_400
        case .autoRenewable:
            grant.until = purchase.purchaseDate
        default:
            break
        }
        return grant
    }
}
