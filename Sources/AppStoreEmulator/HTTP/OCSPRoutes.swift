import AppStoreSigning
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// The OCSP responder and the revocation of the signing leaf, under `/emulator/v1`.
    ///
    /// `POST ocsp` takes a DER `OCSPRequest` (`application/ocsp-request`) and answers a
    /// DER `OCSPResponse` (`application/ocsp-response`). Its faults are the `ocsp`
    /// endpoint key: an outage answers HTTP 503, an injected error a `tryLater` response.
    nonisolated func addOCSPRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post("ocsp") { request, _ -> Response in
            switch await self.injectFault("ocsp") {
            case .outage:
                return JSONResponse.error(
                    EmulatorError("outage", "the OCSP responder is down (injected outage)", status: 503))
            case .error:
                return Self.ocspResponse(OCSPResponder.errorResponse(.tryLater))
            case .proceed:
                return await self.respond {
                    let body = try await JSONResponse.body(of: request, limit: 1 << 16)
                    return Self.ocspResponse(try await self.ocspResponse(to: Array(body)))
                }
            }
        }
        group.post("certificates/revoke-signing-leaf") { _, _ in
            await self.respond {
                let (serialNumber, revocationDate) = try await self.revokeSigningLeaf()
                return JSONResponse.make(
                    SigningLeafRevocation(serialNumber: serialNumber, revocationDate: revocationDate))
            }
        }
    }

    private nonisolated static func ocspResponse(_ der: [UInt8]) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/ocsp-response"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: der))
        )
    }
}

/// The answer to `POST /emulator/v1/certificates/revoke-signing-leaf`.
private struct SigningLeafRevocation: Encodable {
    /// The leaf's serial number, hex.
    var serialNumber: String
    /// When the responder says it was revoked.
    var revocationDate: Date
}
