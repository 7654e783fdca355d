import Foundation
import Hummingbird
import PlayModel

extension PlayEmulator {
    /// Under `/emulator/v1/play`: `GET certs` (the push key's JWKS), `GET`/`PUT push` (the
    /// push configuration) and `POST notifications/test` (a test notification).
    func addPushRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("certs") { _, _ -> Response in
            await Self.answer { PlayJSON.make(try self.pushKeySet()) }
        }
        group.get("push") { _, _ -> Response in
            PlayJSON.make(self.pushConfiguration)
        }
        group.put("push") { request, _ -> Response in
            await Self.answer {
                guard let body = await PlayJSON.body(of: request),
                    let configuration = try? JSONDecoder().decode(PlayPushConfiguration.self, from: body)
                else {
                    throw PlayEmulatorError(
                        "malformed_body",
                        "the body is not a JSON push configuration: {\"url\"?, \"audience\"?, \"serviceAccountEmail\"?}"
                    )
                }
                try await self.setPushConfiguration(configuration)
                return PlayJSON.make(configuration)
            }
        }
        group.post("notifications/test") { _, _ -> Response in
            await Self.answer {
                try self.requestTestNotification()
                return PlayJSON.make(["requested": true])
            }
        }
    }
}

/// Hands the notifications a request published to the push sink before the answer leaves
/// (``PlayEmulator/sendPendingNotifications()``): any Play request may publish one, a read
/// too, since reading applies the three-day rule.
struct PlayPushMiddleware<Context: RequestContext>: RouterMiddleware {
    let emulator: PlayEmulator

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        await emulator.sendPendingNotifications()
        return response
    }
}
