import AppStoreEmulator
import AppStoreModel
import AppStoreSigning
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Consumption information end to end: the player's consent recorded through the player
/// API, Apple's CONSUMPTION_REQUEST from the emulator (`POST /emulator/v1/transactions/{id}/
/// consumption-request`), the V2 answer the emulator received (`GET …/consumption`), and
/// the history of every answer not sent. RESCIND_CONSENT and notification types the server
/// does not act on are signed with the emulator's identity (the emulator sends neither).
@Suite("Consumption information and consent, end to end")
struct ConsumptionConsentPathTests {
    @Test(
        "with consent, a CONSUMPTION_REQUEST is answered with the ledger's facts and the policy",
        arguments: StoreKind.allCases)
    func consented(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind) {
            $0.consumption = ConsumptionSettings(refundPreference: .byConsumption, sampleContentProvided: true)
        }
        defer { Task { await fixture.shutdown() } }
        let transactionId = try await delivered(fixture, to: "alice")

        let given = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(given.status == 200, "\(given)")
        let consent = try given.decode(ConsentReply.self)
        #expect(consent.consented)
        #expect(consent.status == "given")
        #expect(consent.source == "player")
        let reported = try await fixture.send(
            .post, "/v1/admin/transactions/\(transactionId)/consumption", credential: ServerFixture.adminKey,
            json: ConsumptionReportReply.Request(spent: ["coins": 40], reportedBy: "game"))
        #expect(reported.status == 200, "\(reported)")
        #expect(try reported.decode(ConsumptionReportReply.self).consumptionPercentage == 40_000)

        let requested = try await fixture.send(.post, "/emulator/v1/transactions/\(transactionId)/consumption-request")
        #expect(requested.status < 300, "\(requested)")
        try await fixture.eventually("the answer") {
            try await fixture.send(.get, "/emulator/v1/transactions/\(transactionId)/consumption").status == 200
        }
        let sent = try await fixture.send(.get, "/emulator/v1/transactions/\(transactionId)/consumption")
            .decode(ConsumptionRequest.self)
        #expect(sent.customerConsented == true)
        #expect(sent.deliveryStatus == .delivered)
        #expect(sent.consumptionPercentage == 40_000)
        #expect(sent.refundPreference == .grantProrated)
        #expect(sent.sampleContentProvided == true)

        let events = try await fixture.store.events(transactionId: transactionId)
        let answer = try #require(events.last { $0.type.rawValue == "consumption_information_sent" })
        #expect(answer.playerId == "alice")
        #expect(answer.detail["deliveryStatus"] == "DELIVERED")
        #expect(answer.detail["consumptionPercentage"] == "40000")
        #expect(answer.detail["refundPreference"] == "GRANT_PRORATED")
        #expect(!events.contains { $0.type.rawValue == "consumption_information_not_sent" })
    }

    @Test("without consent nothing is sent, and the history says why", arguments: StoreKind.allCases)
    func noConsent(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let transactionId = try await delivered(fixture, to: "alice")
        let reason = try await requestConsumptionUnanswered(fixture, transactionId)
        #expect(reason == "no_consent")
        let read = try await fixture.send(
            .get, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(try read.decode(ConsentReply.self).consented == false)
        #expect(try read.decode(ConsentReply.self).status == nil)
    }

    @Test("consent withdrawn by the player: nothing is sent", arguments: StoreKind.allCases)
    func withdrawnByPlayer(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let transactionId = try await delivered(fixture, to: "alice")
        let token = fixture.token("alice")
        #expect(try await fixture.send(.put, "/v1/players/me/consumption-consent", credential: token).status == 200)
        let withdrawn = try await fixture.send(.delete, "/v1/players/me/consumption-consent", credential: token)
        #expect(withdrawn.status == 200)
        #expect(try withdrawn.decode(ConsentReply.self).status == "withdrawn")

        #expect(try await requestConsumptionUnanswered(fixture, transactionId) == "consent_withdrawn")
        let timeline = try await fixture.store.timeline(playerId: "alice").map(\.type.rawValue)
        #expect(timeline.contains("consumption_consent_given"))
        #expect(timeline.contains("consumption_consent_withdrawn"))
    }

    @Test(
        "RESCIND_CONSENT for the account the player consented with withdraws the consent: nothing is sent",
        arguments: StoreKind.allCases)
    func rescindedByApple(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let transactionId = try await delivered(fixture, to: "alice")
        let appTransaction = try await fixture.emulator.appTransactionInfo(transactionId, environment: .sandbox)
            .signedAppTransactionInfo
        let given = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: fixture.token("alice"),
            json: ["signedAppTransaction": try #require(appTransaction)])
        #expect(given.status == 200, "\(given)")
        let account = try #require(try given.decode(ConsentReply.self).appTransactionId)

        let rescind = try rescindConsent(fixture, signedAppTransaction: try #require(appTransaction))
        let posted = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": rescind.signed])
        #expect(posted.status == 200, "\(posted)")
        let admin = try await fixture.send(
            .get, "/v1/admin/players/alice/consumption-consent", credential: ServerFixture.adminKey)
        let consent = try admin.decode(ConsentReply.self)
        #expect(consent.status == "withdrawn")
        #expect(consent.source == "apple_rescind_consent")
        #expect(consent.changedBy == rescind.uuid)
        #expect(consent.appTransactionId == account)
        #expect(try await fixture.store.notification(uuid: rescind.uuid)?.processedAt != nil)

        #expect(try await requestConsumptionUnanswered(fixture, transactionId) == "consent_withdrawn")
    }

    @Test("RESCIND_CONSENT no consent names still stops the answer for a transaction of that account")
    func rescindedAccountOfTheTransaction() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let transactionId = try await delivered(fixture, to: "alice")
        // Consent without an account: the rescission cannot be matched when it arrives.
        #expect(
            try await fixture.send(.put, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
                .status == 200)
        let appTransaction = try #require(
            try await fixture.emulator.appTransactionInfo(transactionId, environment: .sandbox).signedAppTransactionInfo
        )
        let rescind = try rescindConsent(fixture, signedAppTransaction: appTransaction)
        #expect(
            try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": rescind.signed]).status
                == 200)
        #expect(try await fixture.store.notification(uuid: rescind.uuid)?.processedAt != nil)
        let consent = try await fixture.send(
            .get, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(try consent.decode(ConsentReply.self).consented, "not matched yet")

        // The transaction's signed data names the same account: withdrawn, nothing sent.
        #expect(try await requestConsumptionUnanswered(fixture, transactionId) == "consent_withdrawn")
        let after = try await fixture.send(
            .get, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(try after.decode(ConsentReply.self).source == "apple_rescind_consent")
    }

    @Test("notification types the server does not act on are recorded, in the history, answered 200")
    func notActedOn() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        #expect(
            try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction)).status == 200)

        let signer = try JWSSigner(chain: fixture.emulator.identity.jwsChain)
        let unknownUUID = UUID().uuidString.lowercased()
        let unknown = try signer.sign(
            ResponseBodyV2DecodedPayload(
                notificationType: NotificationType(rawValue: "SOMETHING_APPLE_ADDS_LATER"),
                notificationUUID: unknownUUID,
                data: NotificationData(
                    bundleId: "com.example.game", environment: .sandbox, signedTransactionInfo: paid.signedTransaction),
                version: "2.0", signedDate: Self.now()))
        let answered = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": unknown])
        #expect(answered.status == 200, "\(answered)")
        let recorded = try #require(try await fixture.store.notification(uuid: unknownUUID))
        #expect(recorded.type == "SOMETHING_APPLE_ADDS_LATER")
        #expect(recorded.processedAt != nil)
        let event = try #require(
            try await fixture.store.timeline(playerId: "alice").last { $0.type.rawValue == "notification_not_acted_on" }
        )
        #expect(event.transactionId == transactionId)
        #expect(event.detail["notificationType"] == "SOMETHING_APPLE_ADDS_LATER")
        #expect(event.detail["reason"] == "not_acted_on")

        let metadataUUID = UUID().uuidString.lowercased()
        let metadata = try signer.sign(
            ResponseBodyV2DecodedPayload(
                notificationType: .metadataUpdate, notificationUUID: metadataUUID, version: "2.0",
                signedDate: Self.now()))
        #expect(
            try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": metadata]).status == 200)
        #expect(try await fixture.store.notification(uuid: metadataUUID)?.processedAt != nil)
    }

    @Test("consent and consumption endpoints refuse what they cannot record")
    func refusals() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let transactionId = try await delivered(fixture, to: "alice")
        let token = fixture.token("alice")

        let forged = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: token, json: ["signedAppTransaction": "x.y.z"])
        #expect(forged.status == 422)
        #expect(try await fixture.store.consumptionConsent(playerId: "alice") == nil, "nothing recorded")
        let notJSON = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: token, body: Data("consent".utf8))
        #expect(notJSON.status == 400)
        for blank in ["\t", " ", "\r\n"] {
            let whitespace = try await fixture.send(
                .put, "/v1/players/me/consumption-consent", credential: token, body: Data(blank.utf8))
            #expect(whitespace.status == 400, "whitespace alone is not a JSON body: \(blank.debugDescription)")
        }
        #expect(try await fixture.store.consumptionConsent(playerId: "alice") == nil, "still nothing recorded")
        #expect(try await fixture.send(.put, "/v1/players/me/consumption-consent").status == 401)
        #expect(
            try await fixture.send(.get, "/v1/admin/players/alice/consumption-consent", credential: token).status
                == 401, "a player token never opens the admin API")

        let path = "/v1/admin/transactions/\(transactionId)/consumption"
        let admin = ServerFixture.adminKey
        let both = try await fixture.send(
            .post, path, credential: admin,
            json: ConsumptionReportReply.Request(consumptionPercentage: 10, spent: ["coins": 1]))
        #expect(both.status == 400)
        #expect(try await fixture.send(.post, path, credential: admin, json: [String: Int]()).status == 400)
        let notGranted = try await fixture.send(
            .post, path, credential: admin, json: ConsumptionReportReply.Request(spent: ["gems": 1]))
        #expect(notGranted.status == 400)
        #expect(notGranted.code == "invalid_request")
        let tooMuch = try await fixture.send(
            .post, path, credential: admin, json: ConsumptionReportReply.Request(consumptionPercentage: 100_001))
        #expect(tooMuch.status == 400)
        #expect(try await fixture.send(.get, path, credential: admin).status == 404, "nothing reported yet")
        let unknown = try await fixture.send(
            .post, "/v1/admin/transactions/404404/consumption", credential: admin,
            json: ConsumptionReportReply.Request(consumptionPercentage: 0))
        #expect(unknown.status == 404)
        #expect(unknown.code == "not_found")

        let withdrawn = try await fixture.send(
            .delete, "/v1/admin/players/alice/consumption-consent?actor=sam&reason=ticket%204711", credential: admin)
        #expect(withdrawn.status == 200)
        let consent = try withdrawn.decode(ConsentReply.self)
        #expect(consent.source == "admin")
        #expect(consent.changedBy == "sam")
        let event = try #require(try await fixture.store.timeline(playerId: "alice").last)
        #expect(event.detail["reason"] == "ticket 4711")
    }

    // MARK: Helpers

    /// Orders, pays and waits for the notification's delivery to `player`.
    private func delivered(_ fixture: ServerFixture, to player: String) async throws -> String {
        let order = try await fixture.order(player)
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        try await fixture.eventually("delivery") { try await fixture.wallet(player) == ["coins": 100] }
        return transactionId
    }

    /// Has the emulator send CONSUMPTION_REQUEST, waits until the server recorded that it
    /// sent nothing, checks the emulator received nothing, and returns the recorded reason.
    private func requestConsumptionUnanswered(_ fixture: ServerFixture, _ transactionId: String) async throws
        -> String?
    {
        let requested = try await fixture.send(.post, "/emulator/v1/transactions/\(transactionId)/consumption-request")
        #expect(requested.status < 300, "\(requested)")
        try await fixture.eventually("the history of the unanswered request") {
            try await fixture.store.events(transactionId: transactionId).contains {
                $0.type.rawValue == "consumption_information_not_sent"
            }
        }
        await fixture.emulator.waitForNotificationDeliveries()
        #expect(try await fixture.emulator.consumptionInformation(transactionId) == nil, "nothing reached Apple")
        let events = try await fixture.store.events(transactionId: transactionId)
        #expect(!events.contains { $0.type.rawValue == "consumption_information_sent" })
        let event = events.last { $0.type.rawValue == "consumption_information_not_sent" }
        #expect(event?.playerId == "alice")
        return event?.detail["reason"]
    }

    /// A RESCIND_CONSENT about the account of `signedAppTransaction`, signed as Apple would.
    private func rescindConsent(_ fixture: ServerFixture, signedAppTransaction: String) throws -> (
        uuid: String, signed: String
    ) {
        let uuid = UUID().uuidString.lowercased()
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: .rescindConsent, notificationUUID: uuid, version: "2.0", signedDate: Self.now(),
            appData: AppData(
                bundleId: "com.example.game", environment: .sandbox, signedAppTransactionInfo: signedAppTransaction))
        return (uuid, try JWSSigner(chain: fixture.emulator.identity.jwsChain).sign(payload))
    }

    private static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// A consent answer, as a client reads it.
private struct ConsentReply: Decodable {
    var playerId: String
    var consented: Bool
    var status: String?
    var source: String?
    var appTransactionId: String?
    var changedBy: String?
}

/// A consumption report answer, as a client reads it.
private struct ConsumptionReportReply: Decodable {
    var consumptionPercentage: Int

    /// The request body.
    struct Request: Encodable {
        var consumptionPercentage: Int?
        var spent: [String: Int64]?
        var reportedBy: String?
    }
}
