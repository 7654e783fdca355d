import Foundation
import PurchaseSDK
import Testing

@testable import StoreKeeperSDK

/// What the ABI's error events say for the pipeline's errors: a code a game can act on.
@Suite struct ABIErrorTests {
    @Test("a server that does not answer, or refuses, has a code of its own, not internal")
    func serverErrors() {
        let unreachable = ABIError(ServerCallError.retryable(reason: "network_error"))
        #expect(unreachable.code == "server_unreachable")
        #expect(unreachable.message.contains("network_error"))
        let refused = ABIError(ServerCallError.rejected(reason: "invalid_request", message: "bad body"))
        #expect(refused.code == "server_refused")
        #expect(refused.message == "invalid_request: bad body")
        #expect(ABIError(PurchaseError.noPlayerSignedIn).code == "no_player_signed_in")
        #expect(ABIError(CocoaError(.fileNoSuchFile)).code == "internal")
    }
}
