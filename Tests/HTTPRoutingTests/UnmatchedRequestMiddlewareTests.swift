import HTTPRouting
import Hummingbird
import HummingbirdTesting
import Testing

/// ``UnmatchedRequestMiddleware`` on a router of its own, as the emulator and the purchase
/// server each use it.
struct UnmatchedRequestMiddlewareTests {
    @Test func itAnswers405ForServedPathsAndLeavesEverythingElseAlone() async throws {
        let router = Router()
        router.get("items/:id") { _, _ in "item" }
        router.post("items/:id") { _, _ in "posted" }
        router.get("items/:id/missing") { _, _ -> String in throw HTTPError(.notFound) }
        router.get("files/**") { _, _ in "file" }
        router.add(
            middleware: UnmatchedRequestMiddleware(
                table: RouteMethodTable(routes: router.routes),
                methodNotAllowed: { _, allowed in
                    Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "use \(allowed)")))
                },
                unknownPath: { request in
                    request.uri.path.hasPrefix("/mine/")
                        ? Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "unknown"))) : nil
                }))
        let app = Application(router: router)
        try await app.test(.router) { client in
            let delete = try await client.execute(uri: "/items/1", method: .delete)
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers[.allow] == "GET, POST")
            let nested = try await client.execute(uri: "/files/a/b/c", method: .put)
            #expect(nested.status == .methodNotAllowed)
            #expect(nested.headers[.allow] == "GET")

            #expect(try await client.execute(uri: "/items/1", method: .post).status == .ok)
            let unknown = try await client.execute(uri: "/elsewhere", method: .delete)
            #expect(unknown.status == .notFound, "a path no route serves stays the router's 404")
            #expect(unknown.headers[.allow] == nil)
            #expect(unknown.body.readableBytes == 0)
            let claimed = try await client.execute(uri: "/mine/thing", method: .get)
            #expect(claimed.status == .notFound, "a path the application claims gets its 404")
            #expect(String(buffer: claimed.body) == "unknown")
            let handlerNotFound = try await client.execute(uri: "/items/1/missing", method: .get)
            #expect(handlerNotFound.status == .notFound, "a handler's own 404 stays a 404")
        }
    }

    @Test func theTableMatchesPathsAsTheRouterDoes() {
        var table = RouteMethodTable()
        table.add(.get, at: "/devices/:deviceId")
        table.add(.put, at: "/devices/{deviceId}")
        table.add(.post, at: "/devices/:deviceId/purchases")
        table.add(.get, at: "/static/**")
        #expect(table.methods(forPath: "/devices/phone") == [.get, .put])
        #expect(table.methods(forPath: "/devices/phone/") == [.get, .put])
        #expect(table.methods(forPath: "/devices/phone/purchases") == [.post])
        #expect(table.methods(forPath: "/devices") == [])
        #expect(table.methods(forPath: "/static/a/b") == [.get])
        #expect(table.methods(forPath: "/static") == [])
        #expect(table.methods(forPath: "/other") == [])
    }
}
