import Foundation
import PurchaseServer
import Testing

/// What each product type of the catalog requires, and the transfer policy's setting.
@Suite("Catalog kinds and the restore transfer policy")
struct CatalogKindTests {
    @Test("the sample catalog is valid and unlocks what the issue names")
    func sample() throws {
        let catalog = ProductCatalog.sample
        #expect(catalog.validationProblems().isEmpty)
        #expect(catalog.product("levelpack1")?.entitlement == "levelpack1")
        #expect(catalog.product("vip.monthly")?.entitlement == "vip")
        #expect(catalog.product("vip.premium")?.entitlement == "vip")
        #expect(catalog.product("vip.premium")?.subscriptionGroupIdentifier == "20000001")
        #expect(catalog.product("seasonpass")?.periodDays == 90)
        for product in catalog.products where product.entitlement != nil {
            #expect(product.grants.isEmpty, "\(product.productId)")
        }
    }

    @Test("each type's requirements are checked")
    func requirements() {
        let catalog = ProductCatalog(products: [
            CatalogProduct(productId: "empty", type: .consumable),
            CatalogProduct(productId: "gem", type: .consumable, grants: ["gems": 1], entitlement: "gem"),
            CatalogProduct(productId: "pack", type: .nonConsumable),
            CatalogProduct(productId: "pass", type: .nonRenewing, entitlement: "pass", periodDays: 0),
            CatalogProduct(productId: "forever", type: .nonRenewing, entitlement: "pass", periodDays: Int.max),
            CatalogProduct(productId: "sub", type: .autoRenewable, entitlement: "vip"),
            CatalogProduct(productId: "odd", type: "Mystery", grants: ["x": 1]),
            CatalogProduct(
                productId: "mixed", type: .nonConsumable, entitlement: "m", subscriptionGroupIdentifier: "1",
                periodDays: 3),
        ])
        let problems = catalog.validationProblems()
        let expected = [
            "product empty is a consumable: it must grant something",
            "product gem is a consumable: it unlocks no entitlement",
            "product pack is Non-Consumable: it must name the entitlement it unlocks",
            "product pass is a non-renewing subscription: periodDays must be 1 to 3650",
            "product forever is a non-renewing subscription: periodDays must be 1 to 3650",
            "product sub is an auto-renewable subscription: it must name its subscriptionGroupIdentifier",
            "product odd has the unknown type Mystery",
            "product mixed is not a non-renewing subscription: it has no periodDays",
            "product mixed is not an auto-renewable subscription: it has no subscriptionGroupIdentifier",
        ]
        #expect(problems == expected)
    }

    @Test("product ids, item names and entitlements are identifiers")
    func identifiers() {
        let catalog = ProductCatalog(products: [
            CatalogProduct(productId: "coins\u{200B}", type: .consumable, grants: ["coins": 1]),
            CatalogProduct(productId: "gems", type: .consumable, grants: ["ｇｅｍｓ": 1, "gold coins": 2]),
            CatalogProduct(productId: "pack", type: .nonConsumable, entitlement: "pack\u{301}"),
        ])
        #expect(
            catalog.validationProblems() == [
                "a productId is not an identifier: it contains U+200B, an invisible formatting character "
                    + "(zero-width, bidirectional or other)",
                "product gems grants an item whose name is not an identifier: it contains U+0020, a white-space "
                    + "character",
                "product gems grants an item whose name is not an identifier: it is not in Unicode normalization "
                    + "form NFKC (a combining-accent, fullwidth or other variant spelling of characters that have one "
                    + "standard form); send the NFKC form",
                "product pack has an entitlement that is not an identifier: it is not in Unicode normalization "
                    + "form NFKC (a combining-accent, fullwidth or other variant spelling of characters that have one "
                    + "standard form); send the NFKC form",
            ])
    }

    @Test("a catalog file's product without grants decodes with none")
    func decoding() throws {
        let json =
            #"{"productId": "vip", "type": "Auto-Renewable Subscription", "entitlement": "vip", "subscriptionGroupIdentifier": "7"}"#
        let product = try JSONDecoder().decode(CatalogProduct.self, from: Data(json.utf8))
        #expect(product.grants.isEmpty)
        #expect(product.subscriptionGroupIdentifier == "7")
        #expect(ProductCatalog(products: [product]).validationProblems().isEmpty)
    }

    @Test("restoreTransferPolicy comes from the file and the environment; other values are refused")
    func transferPolicy() throws {
        #expect(ServerConfiguration().restoreTransferPolicy == .keepWithFirst)
        let file = try JSONDecoder().decode(
            ServerConfiguration.self, from: Data(#"{"restoreTransferPolicy": "refuse"}"#.utf8))
        #expect(file.restoreTransferPolicy == .refuse)
        let environment = try file.applyingEnvironment(["STOREKEEPER_RESTORE_TRANSFER_POLICY": "transfer_to_latest"])
        #expect(environment.restoreTransferPolicy == .transferToLatest)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration().applyingEnvironment(["STOREKEEPER_RESTORE_TRANSFER_POLICY": "latest"])
        }
    }
}
