import Foundation
import StoreKit

/// Xcode's `.storekit` configuration file (JSON): its products and subscription groups as
/// emulator catalog products, and its settings.
struct StoreKitConfigurationFile {
    var products: [EmulatorWire.Product]
    var askToBuyEnabled: Bool
    var failTransactionsEnabled: Bool

    private struct File: Decodable {
        var products: [Item]?
        var nonRenewingSubscriptions: [Item]?
        var subscriptionGroups: [Group]?
        var settings: Settings?
    }

    private struct Group: Decodable {
        var id: String?
        var subscriptions: [Item]?
    }

    private struct Item: Decodable {
        var productID: String
        var type: String?
        var displayPrice: String?
        var groupNumber: Int?
        var subscriptionGroupID: String?
        var recurringSubscriptionPeriod: String?
        var localizations: [Localization]?
    }

    private struct Localization: Decodable {
        var description: String?
        var displayName: String?
        var locale: String?
    }

    private struct Settings: Decodable {
        var _askToBuyEnabled: Bool?
        var _failTransactionsEnabled: Bool?
        var _storefront: String?
    }

    /// Reads the file at `url`.
    ///
    /// - Throws: `SKError.unknown` with the reason for a file that is not a `.storekit`
    ///   file, cannot be read, or is not Xcode's JSON.
    init(contentsOf url: URL) throws {
        guard url.pathExtension == "storekit" else {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(url.path) is not a .storekit file"])
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "cannot read \(url.path): \(error)"])
        }
        let currency = Self.currency(ofStorefront: file.settings?._storefront)
        var products: [EmulatorWire.Product] = []
        for item in (file.products ?? []) + (file.nonRenewingSubscriptions ?? []) {
            products.append(Self.product(item, type: Self.appleType(item.type), currency: currency))
        }
        for group in file.subscriptionGroups ?? [] {
            for item in group.subscriptions ?? [] {
                var product = Self.product(item, type: "Auto-Renewable Subscription", currency: currency)
                product.subscriptionGroupIdentifier = item.subscriptionGroupID ?? group.id
                product.subscriptionGroupLevel = item.groupNumber ?? 1
                product.subscriptionPeriodSeconds = Self.seconds(ofPeriod: item.recurringSubscriptionPeriod)
                products.append(product)
            }
        }
        self.products = products
        askToBuyEnabled = file.settings?._askToBuyEnabled ?? false
        failTransactionsEnabled = file.settings?._failTransactionsEnabled ?? false
    }

    private static func product(_ item: Item, type: String, currency: String) -> EmulatorWire.Product {
        let localization = item.localizations?.first { $0.locale == "en_US" } ?? item.localizations?.first
        let price = Decimal(string: item.displayPrice ?? "0", locale: Locale(identifier: "en_US_POSIX")) ?? 0
        let milliunits = NSDecimalNumber(decimal: price * 1000).int64Value
        return EmulatorWire.Product(
            productId: item.productID, type: type, price: milliunits, currency: currency,
            displayName: localization?.displayName, localizedDescription: localization?.description)
    }

    /// Xcode's type names to Apple's product type strings.
    private static func appleType(_ type: String?) -> String {
        switch type {
        case "NonConsumable": "Non-Consumable"
        case "NonRenewingSubscription": "Non-Renewing Subscription"
        case "RecurringSubscription": "Auto-Renewable Subscription"
        default: "Consumable"
        }
    }

    /// An ISO 8601 period (`P1W`, `P1M`, `P1Y`, `P3D`) in seconds, months of 30 days.
    private static func seconds(ofPeriod period: String?) -> Int64 {
        guard let period, period.hasPrefix("P"), let unit = period.last,
            let count = Int64(period.dropFirst().dropLast())
        else { return 30 * 86_400 }
        let day: Int64 = 86_400
        switch unit {
        case "D": return count * day
        case "W": return count * 7 * day
        case "M": return count * 30 * day
        case "Y": return count * 365 * day
        default: return 30 * day
        }
    }

    private static func currency(ofStorefront storefront: String?) -> String {
        switch storefront {
        case "GBR": "GBP"
        case "JPN": "JPY"
        case "CHN": "CNY"
        case "DEU", "FRA", "ITA", "ESP", "NLD": "EUR"
        default: "USD"
        }
    }
}
