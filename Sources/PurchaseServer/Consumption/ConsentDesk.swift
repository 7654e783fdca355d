import AppStoreModel
import AppStoreVerification
import Foundation
import Ledger

/// Records a player's consent to share consumption data with the App Store, and its
/// withdrawal, for the player API and the admin API. Consent is given only by the player;
/// support and Apple's `RESCIND_CONSENT` only withdraw it.
struct ConsentDesk: Sendable {
    let store: any LedgerStore
    /// Verifies the signed app transaction a player may send with the consent.
    let verifier: JWSVerifier

    /// The player's consent as it stands.
    func consent(playerId: String) async throws -> ConsentBody {
        ConsentBody(playerId: playerId, consent: try await store.consumptionConsent(playerId: playerId))
    }

    /// Records the player's consent, tied to the App Store account of the signed app
    /// transaction when the app sends one.
    ///
    /// - Throws: ``ServerError`` `422` with the verification code for a signed app
    ///   transaction that does not verify or carries no `appTransactionId`.
    func give(playerId: String, _ request: GiveConsentRequest) async throws -> ConsentBody {
        var appTransactionId: String?
        if let signed = request.signedAppTransaction {
            let appTransaction: JWSAppTransactionDecodedPayload
            do {
                appTransaction = try await verifier.verifyAppTransaction(signed)
            } catch {
                throw ServerError(error.code.rawValue, error.message, status: .unprocessableContent)
            }
            guard let id = appTransaction.appTransactionId, !id.isEmpty else {
                throw ServerError(
                    "malformed_payload", "the signed app transaction carries no appTransactionId",
                    status: .unprocessableContent)
            }
            appTransactionId = id
        }
        let change = ConsumptionConsentChange(
            playerId: playerId, status: .given, source: .player, appTransactionId: appTransactionId)
        return ConsentBody(playerId: playerId, consent: try await store.changeConsumptionConsent(change).consent)
    }

    /// Withdraws the player's consent (recording the refusal when none was given).
    func withdraw(playerId: String, source: ConsentSource, changedBy: String? = nil, reason: String? = nil)
        async throws -> ConsentBody
    {
        let change = ConsumptionConsentChange(
            playerId: playerId, status: .withdrawn, source: source, changedBy: changedBy, reason: reason)
        return ConsentBody(playerId: playerId, consent: try await store.changeConsumptionConsent(change).consent)
    }
}
