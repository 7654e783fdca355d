import Foundation
import Shop
import StoreKit
import StoreKitTest
import Testing

/// The shop's StoreKit tests. Every `SKTestSession` controls the same test environment,
/// so the suites run one test at a time.
@Suite(.serialized, .timeLimit(.minutes(1)))
@MainActor
struct ShopTests {}

/// A session on `Shop.storekit` (the test target's resource), with no transactions.
@MainActor
func makeSession() throws -> SKTestSession {
    let session = try SKTestSession(configurationFileNamed: "Shop")
    session.resetToDefaultState()
    session.disableDialogs = true
    session.clearTransactions()
    return session
}

/// The first change in `changes` that `isWanted`, or nil when the stream ended first.
@MainActor
func firstChange(
    in changes: AsyncStream<ShopChange>, where isWanted: (ShopChange) -> Bool
) async -> ShopChange? {
    for await change in changes where isWanted(change) { return change }
    return nil
}
