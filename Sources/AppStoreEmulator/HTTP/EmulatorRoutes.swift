import AppStoreModel
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// Adds the emulator's endpoints to `router`: Apple's wire protocol under
    /// `/production` and `/sandbox`, and the device and control API under `/emulator/v1`.
    /// See docs/emulator.md for the contract.
    public nonisolated func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        for environment in [AppStoreEnvironment.production, .sandbox] {
            let prefix = environment == .production ? "production" : "sandbox"
            addVerifyReceiptRoute(to: router.group(RouterPath(prefix)), environment: environment)
            addServerAPIRoutes(to: router.group(RouterPath(prefix)), environment: environment)
        }
        addDeviceRoutes(to: router.group("emulator/v1"))
        addControlRoutes(to: router.group("emulator/v1"))
    }

    private nonisolated func addVerifyReceiptRoute<Context: RequestContext>(
        to group: RouterGroup<Context>,
        environment: AppStoreEnvironment
    ) {
        group.post("verifyReceipt") { request, _ -> Response in
            switch await self.injectFault("verifyReceipt") {
            case .outage:
                return JSONResponse.error(
                    EmulatorError("outage", "verifyReceipt is down (injected outage)", status: 503))
            case .error:
                return JSONResponse.make(await self.injectedVerifyReceiptFailure())
            case .proceed:
                guard let body = try? await JSONResponse.body(of: request, limit: 16 << 20) else {
                    return JSONResponse.make(VerifyReceiptResponse(status: .malformedReceiptData))
                }
                return JSONResponse.make(await self.verifyReceipt(body, at: environment))
            }
        }
    }

    /// Runs a handler, turning the emulator's errors into their HTTP answers.
    nonisolated func respond(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as EmulatorError {
            return JSONResponse.error(error)
        } catch let error as APIError {
            return JSONResponse.apiError(error)
        } catch {
            return JSONResponse.error(EmulatorError("internal_error", "\(error)", status: 500))
        }
    }
}
