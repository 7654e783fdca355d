import AppStoreModel
import AppStoreSigning
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AppStoreEmulator

/// What a schema-driven fuzzer checks against docs/emulator-openapi.yaml: 405 with `Allow`
/// for a method a path is not served with, and a coded JSON answer, never a 500 or an
/// empty body, for a request the emulator refuses.
struct HTTPConformanceTests {
    @Test func aMethodAPathIsNotServedWithIs405WithAllowInThePathsErrorShape() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let device = try await client.execute(uri: "/emulator/v1/devices/phone", method: .delete)
            #expect(device.status == .methodNotAllowed)
            #expect(device.headers[.allow] == "GET, PUT")
            #expect(device.headers[.contentType] == "application/json")
            #expect(try JSON.object(device.body)["error"] as? String == "method_not_allowed")

            let faults = try await client.execute(uri: "/emulator/v1/faults", method: .patch)
            #expect(faults.status == .methodNotAllowed)
            #expect(faults.headers[.allow] == "GET, PUT")

            let verifyReceipt = try await client.execute(uri: "/sandbox/verifyReceipt", method: .get)
            #expect(verifyReceipt.status == .methodNotAllowed)
            #expect(verifyReceipt.headers[.allow] == "POST")
            #expect(try JSON.object(verifyReceipt.body)["status"] as? Int == 21000)

            let serverAPI = try await client.execute(uri: "/production/inApps/v1/transactions/1", method: .post)
            #expect(serverAPI.status == .methodNotAllowed)
            #expect(serverAPI.headers[.allow] == "GET")
            #expect(try JSON.decode(APIErrorResponse.self, serverAPI.body).errorCode == .generalBadRequest)

            let head = try await client.execute(uri: "/emulator/v1/products", method: .head)
            #expect(head.status == .methodNotAllowed)
            #expect(head.headers[.allow] == "GET, PUT")

            let served = try await client.execute(uri: "/emulator/v1/devices/phone", method: .get)
            #expect(served.status == .ok, "a served method is untouched")
        }
    }

    @Test func aPathTheEmulatorDoesNotServeIsAJSON404() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let emulator = try await client.execute(uri: "/emulator/v1/nothing-here", method: .get)
            #expect(emulator.status == .notFound)
            #expect(try JSON.object(emulator.body)["error"] as? String == "not_found")
            let apple = try await client.execute(uri: "/sandbox/inApps/v9/nothing", method: .get)
            #expect(apple.status == .notFound)
            #expect(try JSON.decode(APIErrorResponse.self, apple.body).errorCode == .generalBadRequest)
        }
    }

    @Test func malformedBodiesGetACoded4xxInTheirAPIsShape() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let token = try fixture.emulator.identity.apiKey.makeToken()
        try await fixture.live { _, client in
            for (uri, method) in [
                ("/emulator/v1/devices/phone", HTTPRequest.Method.put),
                ("/emulator/v1/devices/phone/purchases", .post),
                ("/emulator/v1/faults", .put),
            ] {
                let response = try await client.execute(uri: uri, method: method, body: ByteBuffer(string: "{\"no"))
                #expect(response.status == .badRequest, "\(method) \(uri)")
                #expect(response.headers[.contentType] == "application/json")
                #expect(try JSON.object(response.body)["error"] as? String == "malformed_body", "\(method) \(uri)")
            }
            for (uri, method) in [
                ("/sandbox/inApps/v1/notifications/history", HTTPRequest.Method.post),
                ("/sandbox/inApps/v2/transactions/consumption/2000000000000001", .put),
            ] {
                let response = try await client.execute(
                    uri: uri, method: method, headers: [.authorization: "Bearer \(token)"],
                    body: ByteBuffer(string: "[1, 2"))
                #expect(response.status == .badRequest, "\(method) \(uri)")
                #expect(response.headers[.contentType] == "application/json")
                let body = try JSON.decode(APIErrorResponse.self, response.body)
                #expect(body.errorCode == .generalBadRequest, "\(method) \(uri): Apple's shape, not the emulator's")
            }
        }
    }

    @Test func serverAPIInputsFollowApplesRules() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let token = try fixture.emulator.identity.apiKey.makeToken()
        let history = "/sandbox/inApps/v1/notifications/history"
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let window = #""startDate": \#(now - 60_000), "endDate": \#(now)"#
        let consumption = "/sandbox/inApps/v2/transactions/consumption/2000000000000001"
        let consented = #""customerConsented": true, "sampleContentProvided": false"#
        let cases: [(uri: String, method: HTTPRequest.Method, body: String?, code: APIErrorCode)] = [
            ("/sandbox/inApps/v1/transactions/abc", .get, nil, .invalidTransactionId),
            ("/sandbox/inApps/v2/history/-1", .get, nil, .invalidTransactionId),
            ("/sandbox/inApps/v2/refund/lookup/1e5", .get, nil, .invalidTransactionId),
            (history, .post, #"{"endDate": 1}"#, .invalidStartDate),
            (history, .post, #"{"startDate": 1}"#, .invalidEndDate),
            (history, .post, #"{\#(window), "notificationType": "NOPE"}"#, .invalidNotificationType),
            (history, .post, #"{\#(window), "notificationSubtype": "INITIAL_BUY"}"#, .invalidNotificationType),
            (
                history, .post, #"{\#(window), "notificationType": "REFUND", "transactionId": "1"}"#,
                .multipleFiltersSupplied
            ),
            (history, .post, #"{\#(window), "transactionId": "x1"}"#, .invalidTransactionId),
            (consumption, .put, #"{"customerConsented": false}"#, .invalidCustomerConsented),
            (consumption, .put, #"{\#(consented), "deliveryStatus": "LOST"}"#, .invalidDeliveryStatus),
            (
                consumption, .put, #"{\#(consented), "deliveryStatus": "DELIVERED", "refundPreference": "MAYBE"}"#,
                .invalidRefundPreference
            ),
        ]
        try await fixture.live { _, client in
            for refused in cases {
                let response = try await client.execute(
                    uri: refused.uri, method: refused.method, headers: [.authorization: "Bearer \(token)"],
                    body: refused.body.map { ByteBuffer(string: $0) })
                #expect(response.status == .badRequest, "\(refused.uri) \(refused.body ?? "")")
                let code = try JSON.decode(APIErrorResponse.self, response.body).errorCode
                #expect(code == refused.code, "\(refused.uri) \(refused.body ?? "")")
            }
        }
    }

    @Test func faultsOutsideTheirRangesAreRefusedAndDatesMayHaveFractionsAndOffsets() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            for body in [
                #"{"endpoints": {"nonsense": {"errorRate": 0.5}}}"#,
                #"{"endpoints": {"verifyReceipt": {"errorRate": 1.5}}}"#,
                #"{"endpoints": {"serverAPI": {"latencyMs": 1000000000}}}"#,
                #"{"notifications": {"dropRate": -0.1}}"#,
                #"{"notifications": {"delayMs": 1e300}}"#,
            ] {
                let response = try await client.execute(
                    uri: "/emulator/v1/faults", method: .put, body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(body)")
                #expect(try JSON.object(response.body)["error"] as? String == "invalid_faults", "\(body)")
            }
            #expect(await fixture.emulator.faults == EmulatorFaults(), "nothing refused was applied")

            let window = #"{"start": "2026-11-22T10:00:00.250+01:00", "end": "2026-11-22t10:05:00z"}"#
            let accepted = try await client.execute(
                uri: "/emulator/v1/faults", method: .put,
                body: ByteBuffer(string: #"{"endpoints": {"serverAPI": {"outages": [\#(window)]}}}"#))
            #expect(accepted.status == .ok)
            let outage = try #require(await fixture.emulator.faults.endpoints["serverAPI"]?.outages?.first)
            #expect(outage.start == Date(timeIntervalSince1970: 1_795_338_000.25))
            #expect(outage.end == Date(timeIntervalSince1970: 1_795_341_900))
        }
    }

    @Test func aPendingPurchaseIsApprovedOrDeclinedOnlyOnItsOwnDevice() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.emulator.updateDevice("kid", settings: DeviceSettings(askToBuy: true))
        let pending = try #require(
            try await fixture.emulator.purchase(deviceId: "kid", PurchaseRequest(productId: "potion")).pendingId)
        try await fixture.live { _, client in
            for verdict in ["approve", "decline"] {
                let response = try await client.execute(
                    uri: "/emulator/v1/devices/stranger/purchases/\(pending)/\(verdict)", method: .post)
                #expect(response.status == .notFound)
                #expect(try JSON.object(response.body)["error"] as? String == "unknown_pending_purchase")
            }
            let approved = try await client.execute(
                uri: "/emulator/v1/devices/kid/purchases/\(pending)/approve", method: .post)
            #expect(approved.status == .ok)
        }
    }

    @Test func theOpenAPIDocumentListsExactlyTheRoutesTheEmulatorAdds() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let router = Router()
        fixture.emulator.addRoutes(to: router)
        let served = Set(router.routes.map { "\($0.method.rawValue.lowercased()) \($0.path)" })

        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/emulator-openapi.yaml")
        var documented: Set<String> = []
        var path: String?
        for line in try String(contentsOf: document, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("components:") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                case let method = line.trimmingCharacters(in: .whitespaces).dropLast(),
                ["get", "put", "post", "delete", "patch", "head", "options"].contains(String(method))
            {
                documented.insert("\(method) \(path)")
            }
        }
        #expect(!documented.isEmpty)
        #expect(documented.subtracting(served).isEmpty, "documented, not served: \(documented.subtracting(served))")
        #expect(served.subtracting(documented).isEmpty, "served, not documented: \(served.subtracting(documented))")
    }
}

/// ``RFC3339Date``: what JSON Schema's `date-time` admits, nothing rolled over.
struct RFC3339DateTests {
    @Test func itReadsRFC3339DateTimes() {
        #expect(RFC3339Date.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(RFC3339Date.parse("2026-11-22t10:05:00z") == Date(timeIntervalSince1970: 1_795_341_900))
        #expect(RFC3339Date.parse("2026-11-22T10:00:00.25+01:00") == Date(timeIntervalSince1970: 1_795_338_000.25))
        #expect(RFC3339Date.parse("2024-02-29T00:00:00-05:30") == Date(timeIntervalSince1970: 1_709_184_600))
        #expect(RFC3339Date.parse("0000-03-01T00:00:00Z") == Date(timeIntervalSince1970: -62_162_035_200))
        #expect(RFC3339Date.parse("2016-12-31T23:59:60Z") == Date(timeIntervalSince1970: 1_483_228_800))
        #expect(RFC3339Date.parse("2017-01-01T00:59:60+01:00") == Date(timeIntervalSince1970: 1_483_228_800))
    }

    @Test func itRefusesWhatIsNotOne() {
        for text in [
            "2024-01-01T12:99:00Z", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z",
            "2024-01-01T12:00:60Z", "2024-01-01T12:00:00", "2024-01-01T12:00:00.Z", "2024-01-01 12:00:00Z",
            "2024-01-01T12:00:00+00:09:21", "2024-01-01T12:00:00+24:00", "24-01-01T12:00:00Z", "",
        ] {
            #expect(RFC3339Date.parse(text) == nil, "\(text)")
        }
    }
}

extension RFC3339DateTests {
    @Test func itWritesWhatItReadsProlepticGregorianInUTC() throws {
        for (text, written) in [
            ("2026-11-22T10:00:00.25+01:00", "2026-11-22T09:00:00.250Z"),
            ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"),
            ("1000-02-28T23:59:59.999Z", "1000-02-28T23:59:59.999Z"),
            ("1582-10-05T00:00:00Z", "1582-10-05T00:00:00Z"),
            ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
            ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.500Z"),
        ] {
            #expect(RFC3339Date.format(try #require(RFC3339Date.parse(text))) == written, "\(text)")
        }
        #expect(RFC3339Date.parse("0000-01-01T00:00:00+00:01") == nil, "before year 0000 in UTC")
        #expect(RFC3339Date.parse("9999-12-31T23:59:59-00:01") == nil, "after year 9999 in UTC")
    }
}
