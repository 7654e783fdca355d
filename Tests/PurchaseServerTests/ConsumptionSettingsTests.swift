import AppStoreModel
import Foundation
import PurchaseServer
import Testing

/// `consumption` in the configuration: what the answers to CONSUMPTION_REQUEST state beyond
/// the ledger's facts.
@Suite("Consumption settings")
struct ConsumptionSettingsTests {
    @Test("the file and the environment set the policy; defaults state no preference and no sample")
    func configuration() throws {
        let defaults = ServerConfiguration()
        #expect(defaults.consumption.refundPreference == .none)
        #expect(defaults.consumption.sampleContentProvided == false)

        let file = try JSONDecoder().decode(
            ServerConfiguration.self,
            from: Data(#"{"consumption": {"refundPreference": "byConsumption"}}"#.utf8))
        #expect(file.consumption.refundPreference == .byConsumption)
        #expect(file.consumption.sampleContentProvided == false)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                ServerConfiguration.self, from: Data(#"{"consumption": {"refundPreference": "maybe"}}"#.utf8))
        }

        let environment = try file.applyingEnvironment([
            "STOREKEEPER_CONSUMPTION_REFUND_PREFERENCE": "grantProrated",
            "STOREKEEPER_CONSUMPTION_SAMPLE_CONTENT_PROVIDED": "true",
        ])
        #expect(environment.consumption.refundPreference == .grantProrated)
        #expect(environment.consumption.sampleContentProvided == true)
        #expect(throws: ConfigurationError.self) {
            try file.applyingEnvironment(["STOREKEEPER_CONSUMPTION_REFUND_PREFERENCE": "GRANT_FULL"])
        }
        #expect(throws: ConfigurationError.self) {
            try file.applyingEnvironment(["STOREKEEPER_CONSUMPTION_SAMPLE_CONTENT_PROVIDED": "yes"])
        }
        let names = ServerConfiguration.environmentVariables.map(\.name)
        #expect(names.contains("STOREKEEPER_CONSUMPTION_REFUND_PREFERENCE"))
        #expect(names.contains("STOREKEEPER_CONSUMPTION_SAMPLE_CONTENT_PROVIDED"))
    }

    @Test("each policy's refund preference, as docs/server.md tabulates it")
    func policies() {
        func preference(
            _ policy: ConsumptionSettings.RefundPreferencePolicy, delivered: Bool = true, _ share: Int?,
            subscription: Bool = false
        ) -> RefundPreference? {
            ConsumptionSettings(refundPreference: policy).statedPreference(
                delivered: delivered, consumptionPercentage: share, isSubscription: subscription)
        }
        for share in [nil, 0, 50_000, 100_000] {
            #expect(preference(.none, share) == nil)
            #expect(preference(.decline, share) == .decline)
            #expect(preference(.grantFull, share) == .grantFull)
        }
        #expect(preference(.grantProrated, 50_000) == .grantProrated)
        #expect(preference(.grantProrated, 0) == nil, "Apple prorates a consumable only with a share above 0")
        #expect(preference(.grantProrated, 100_000) == nil)
        #expect(preference(.grantProrated, nil) == nil)
        #expect(preference(.grantProrated, nil, subscription: true) == .grantProrated)

        #expect(preference(.byConsumption, 100_000) == .decline)
        #expect(preference(.byConsumption, 1) == .grantProrated)
        #expect(preference(.byConsumption, 99_999) == .grantProrated)
        #expect(preference(.byConsumption, 0) == .grantFull)
        #expect(preference(.byConsumption, nil) == nil, "no report, no preference")
        #expect(preference(.byConsumption, delivered: false, nil) == .grantFull, "never delivered")
    }
}
