import AppStoreModel
import Foundation
import HTTPRouting
import Hummingbird
import PlayEmulator

extension AppStoreEmulator {
    /// Adds the emulator's endpoints to `router`: Apple's wire protocol under
    /// `/production` and `/sandbox`, the device and control API under `/emulator/v1`, and
    /// the Google Play side (``PlayEmulator/addRoutes(to:)``: `/emulator/v1/play`, `/token`
    /// and the Android Publisher API under `/androidpublisher/v3`).
    /// See docs/emulator.md and docs/emulator-openapi.yaml for the contract.
    ///
    /// It also adds a router middleware that answers, under those three prefixes only,
    /// 405 with an `Allow` header for a method a path is not served with and a JSON 404 for
    /// a path the emulator does not serve (Hummingbird's own answer is an empty 404). It
    /// wraps the router's not-found responder and the routes added after this call, and
    /// lets everything outside the emulator's prefixes through unchanged; under
    /// `/androidpublisher` both answers are in Google's error envelope.
    public nonisolated func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let existing = Set(router.routes.map(\.description))
        for environment in [AppStoreEnvironment.production, .sandbox] {
            let prefix = environment == .production ? "production" : "sandbox"
            addVerifyReceiptRoute(to: router.group(RouterPath(prefix)), environment: environment)
            addServerAPIRoutes(to: router.group(RouterPath(prefix)), environment: environment)
        }
        addDeviceRoutes(to: router.group("emulator/v1"))
        addControlRoutes(to: router.group("emulator/v1"))
        addSubscriptionRoutes(to: router.group("emulator/v1"))
        addOCSPRoutes(to: router.group("emulator/v1"))
        play.addRoutes(to: router)
        let added = router.routes.filter { !existing.contains($0.description) }
        router.add(
            middleware: UnmatchedRequestMiddleware<Context>(
                table: RouteMethodTable(routes: added),
                methodNotAllowed: { request, allowed in
                    (EmulatorErrorShape(path: request.uri.path) ?? .emulator).response(
                        status: .methodNotAllowed, code: "method_not_allowed",
                        message:
                            "\(request.method) is not served on this path; use "
                            + allowed.map(\.rawValue).joined(separator: ", "))
                },
                unknownPath: { request in
                    EmulatorErrorShape(path: request.uri.path)?.response(
                        status: .notFound, code: "not_found",
                        message: "the emulator serves no \(request.method) \(request.uri.path)")
                }))
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
                let answer = await self.verifyReceipt(body, at: environment)
                return await self.respond { JSONResponse.make(answer) }
            }
        }
    }

    /// Runs a handler, turning the emulator's errors into their HTTP answers; answers
    /// only once everything journaled before is on disk (``waitForJournal()``), so no answer
    /// tells of state that a power cut could still take back.
    nonisolated func respond(_ body: () async throws -> Response) async -> Response {
        do {
            let response = try await body()
            try await waitForJournal()
            return response
        } catch let error as EmulatorError {
            return JSONResponse.error(error)
        } catch let error as APIError {
            return JSONResponse.apiError(error)
        } catch {
            return JSONResponse.error(EmulatorError("internal_error", "\(error)", status: 500))
        }
    }
}
