import AppStoreEmulator
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Posts OCSP requests through a live test client, as the server's transport does.
private struct TestClientOCSPTransport: OCSPTransport {
    let client: any TestClientProtocol

    func post(_ request: [UInt8], to url: URL) async throws -> OCSPTransportResponse {
        let response = try await client.execute(
            uri: url.path, method: .post, headers: [.contentType: "application/ocsp-request"],
            body: ByteBuffer(bytes: request))
        if response.status == .ok {
            #expect(response.headers[.contentType] == "application/ocsp-response")
        }
        return OCSPTransportResponse(
            statusCode: Int(response.status.code), body: Array(response.body.readableBytesView))
    }
}

@Suite("Emulator OCSP responder")
struct OCSPResponderTests {
    /// Checks the emulator's JWS leaf against its responder with a fresh (uncached) check.
    static func checkLeaf(_ fixture: EmulatorFixture, _ baseURL: URL, _ client: any TestClientProtocol) async throws {
        let check = RevocationCheck(
            transport: TestClientOCSPTransport(client: client),
            fallbackResponderURL: baseURL.appendingPathComponent("emulator/v1/ocsp"))
        let chain = fixture.emulator.identity.jwsChain
        try await check.check(chain.leaf, issuedBy: chain.intermediate)
    }

    static func expectFailure(
        _ code: VerificationError.Code, _ fixture: EmulatorFixture, _ baseURL: URL, _ client: any TestClientProtocol
    ) async {
        do {
            try await checkLeaf(fixture, baseURL, client)
            Issue.record("expected \(code.rawValue), the leaf checked good")
        } catch let error as VerificationError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("the signing leaf is good until revoked; the revocation survives a restart")
    func goodThenRevoked() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { baseURL, client in
            try await Self.checkLeaf(fixture, baseURL, client)
            let revoked = try await client.execute(uri: "/emulator/v1/certificates/revoke-signing-leaf", method: .post)
            #expect(revoked.status == .ok)
            let answer = try JSON.decode([String: String].self, revoked.body)
            let serial = fixture.emulator.identity.jwsChain.leaf.serialNumber.bytes
            #expect(answer["serialNumber"] == serial.map { String(format: "%02x", $0) }.joined())
            await Self.expectFailure(.certificateRevoked, fixture, baseURL, client)
        }
        await fixture.emulator.shutdown()
        let restarted = try await EmulatorFixture(directory: fixture.directory)
        try await restarted.live { baseURL, client in
            await Self.expectFailure(.certificateRevoked, restarted, baseURL, client)
        }
    }

    @Test("the ocsp fault key makes the responder answer 503 (outage) or tryLater (error)")
    func faults() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { baseURL, client in
            let now = Date()
            await fixture.emulator.setFaults(
                EmulatorFaults(endpoints: [
                    "ocsp": EndpointFaults(outages: [OutageWindow(start: now.addingTimeInterval(-60), end: now + 3600)])
                ]))
            await Self.expectFailure(.revocationUnavailable, fixture, baseURL, client)
            await fixture.emulator.setFaults(EmulatorFaults(endpoints: ["ocsp": EndpointFaults(errorRate: 1)]))
            await Self.expectFailure(.revocationUnavailable, fixture, baseURL, client)
            #expect(await fixture.emulator.injectedFaults["ocsp"] == 2)
            await fixture.emulator.setFaults(EmulatorFaults())
            try await Self.checkLeaf(fixture, baseURL, client)
        }
    }

    @Test("PUT /emulator/v1/faults accepts the ocsp key")
    func faultKeyAccepted() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let response = try await client.execute(
                uri: "/emulator/v1/faults", method: .put,
                body: ByteBuffer(string: #"{"endpoints": {"ocsp": {"errorRate": 1}}}"#))
            #expect(response.status == .ok)
        }
        #expect(await fixture.emulator.faults.endpoints["ocsp"]?.errorRate == 1)
    }

    @Test(
        "a request that is not an OCSPRequest gets a malformedRequest OCSP response",
        arguments: [
            Array("hello".utf8),
            // Found by Fuzz/FuzzOCSP: DER whose SEQUENCEs lack the fields an OCSPRequest has.
            [0x30, 0x00], [0x30, 0x02, 0x30, 0x00],
            [0x30, 0x06, 0x30, 0x04, 0x30, 0x02, 0x30, 0x00],
        ] as [[UInt8]])
    func malformedRequest(request: [UInt8]) async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let response = try await client.execute(
                uri: "/emulator/v1/ocsp", method: .post, body: ByteBuffer(bytes: request))
            #expect(response.status == .ok)
            #expect(Array(response.body.readableBytesView) == [0x30, 0x03, 0x0A, 0x01, 0x01])
        }
    }
}
