/// The `params_json` of each method of `sk_call`; a missing `params_json` reads as `{}`.
enum CallParameters {
    /// `signIn`: the player and their token for the purchase server.
    struct SignIn: Decodable, Sendable {
        var playerId: String
        var token: String
    }

    /// `products`: the store's products with these ids.
    struct Products: Decodable, Sendable {
        var productIds: [String]
    }

    /// `purchase`: one product, `quantity` (default 1) of it.
    struct Purchase: Decodable, Sendable {
        var productId: String
        var quantity: Int?
    }

    /// `entitlements`: ask the server (`refresh`, the default) or answer from the cache.
    struct Entitlements: Decodable, Sendable {
        var refresh: Bool?
    }

    /// Any JSON object: what the methods that take nothing (`signOut`, `start`, `restore`,
    /// `pendingDeliveries`, `events`) accept, and what every `params_json` must be. Its
    /// fields are ignored.
    struct None: Decodable, Sendable {
        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: AnyKey.self)
        }
    }
}
