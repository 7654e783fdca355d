import AsyncHTTPClient
import Foundation
import Hummingbird
import Ledger
import Logging
import NIOCore
import PurchaseServer
import ServiceLifecycle
import Testing
import Yams

/// `docs/openapi.yaml` is a well-formed OpenAPI 3 document, and it describes the routes the
/// server really serves: no more, no fewer, with the credentials each one needs.
@Suite("docs/openapi.yaml")
struct OpenAPIDocumentTests {
    typealias Operation = OpenAPIDocument.Operation

    /// The operations that need no credentials; all others need a player token, or the
    /// admin key under `/v1/admin/`.
    static let unauthenticated: Set<Operation> = [
        Operation(path: "/healthz", method: "get"),
        Operation(path: "/metrics", method: "get"),
        Operation(path: "/v1/products", method: "get"),
        Operation(path: "/v1/notifications/apple", method: "post"),
        Operation(path: "/v1/notifications/google", method: "post"),
    ]

    @Test func isAnOpenAPI3Document() throws {
        let document = try OpenAPIDocument.load()
        let version = try #require(document.node("openapi")?.string)
        #expect(version.hasPrefix("3."), "openapi is \(version)")
        let title = document.node("info", "title")?.string
        let infoVersion = document.node("info", "version")?.string
        #expect(title?.isEmpty == false, "info.title is missing")
        #expect(infoVersion?.isEmpty == false, "info.version is missing")
        #expect(document.node("paths")?.mapping != nil, "paths is missing")
        #expect(!document.operations.isEmpty)
    }

    @Test func everyOperationHasResponses() throws {
        let document = try OpenAPIDocument.load()
        for section in ["paths", "webhooks"] {
            for operation in document.operations(under: section) {
                let responses = document.object(of: operation, in: section)?[key: "responses"]?.mapping
                #expect((responses?.count ?? 0) > 0, "\(section): \(operation) has no responses")
            }
        }
    }

    @Test func everyReferenceResolvesUnderComponents() throws {
        let document = try OpenAPIDocument.load()
        let references = document.references
        #expect(!references.isEmpty)
        for reference in Set(references).sorted() {
            #expect(reference.hasPrefix("#/components/"), "\(reference) points outside components")
            #expect(document.resolve(reference) != nil, "\(reference) does not resolve")
        }
    }

    @Test func everyPathParameterIsDeclared() throws {
        let document = try OpenAPIDocument.load()
        for operation in document.operations {
            let template = Set(OpenAPIDocument.templateParameters(in: operation.path))
            let declared = document.declaredPathParameters(of: operation)
            #expect(
                template.subtracting(declared).isEmpty,
                "\(operation) does not declare \(template.subtracting(declared))")
            #expect(declared.subtracting(template).isEmpty, "\(operation) declares \(declared.subtracting(template))")
            for parameter in document.parameters(of: operation) where parameter[key: "in"]?.string == "path" {
                #expect(parameter[key: "required"]?.bool == true, "\(operation): path parameters must be required")
            }
        }
    }

    @Test func everyOperationNamesTheCredentialItNeeds() throws {
        let document = try OpenAPIDocument.load()
        let schemes = try #require(document.node("components", "securitySchemes"))
        #expect(schemes[key: "playerToken"]?[key: "type"]?.string == "http")
        #expect(schemes[key: "playerToken"]?[key: "scheme"]?.string == "bearer")
        #expect(schemes[key: "playerToken"]?[key: "bearerFormat"]?.string == "JWT")
        #expect(schemes[key: "adminKey"]?[key: "type"]?.string == "http")
        #expect(schemes[key: "adminKey"]?[key: "scheme"]?.string == "bearer")
        for operation in document.operations {
            let requirements = (document.object(of: operation)?[key: "security"] ?? document.node("security"))?.sequence
            let names = (requirements.map(Array.init) ?? []).flatMap { requirement in
                (requirement.mapping.map(Array.init) ?? []).compactMap { $0.key.string }
            }
            for name in names {
                #expect(schemes[key: name] != nil, "\(operation) names an undefined security scheme \(name)")
            }
            let expected =
                Self.unauthenticated.contains(operation)
                ? [] : operation.path.hasPrefix("/v1/admin/") ? ["adminKey"] : ["playerToken"]
            #expect(names == expected, "\(operation)")
        }
    }

    @Test func documentsExactlyTheRoutesTheServerAdds() async throws {
        let document = try OpenAPIDocument.load()
        let store = try SQLiteLedgerStore.inMemory()
        try await store.migrate()
        let router = Router()
        try Self.makeServer(store: store).addRoutes(to: router)
        let served = Set(
            router.routes.map { Operation(path: $0.path.description, method: $0.method.rawValue.lowercased()) })
        let documented = Set(document.operations)
        #expect(documented.subtracting(served).isEmpty, "documented, not served: \(documented.subtracting(served))")
        #expect(served.subtracting(documented).isEmpty, "served, not documented: \(served.subtracting(documented))")
        try await store.close()
    }

    @Test func everyDocumentedRouteIsServed() async throws {
        let document = try OpenAPIDocument.load()
        let operations = document.operations
        try #require(!operations.isEmpty)
        try await Self.withServer { baseURL in
            for operation in operations {
                let path = OpenAPIDocument.concretePath(operation.path, parameterValue: "x")
                let answer = try await Self.send(operation.method, baseURL + path)
                #expect(answer.isFromTheServer, "\(operation): the router has no such route (\(answer))")
                let documented = document.object(of: operation)?[key: "responses"]?[key: String(answer.status)]
                #expect(documented != nil, "\(operation) answered \(answer), a status the document does not list")
                if answer.status >= 400 {
                    #expect(answer.errorCode != nil, "\(operation): an error answer without the error body: \(answer)")
                }
            }

            // The check can fail: a made-up path is 404 `unknown_path`, a wrong method 405.
            let madeUp = try await Self.send("get", baseURL + "/v1/does-not-exist")
            #expect(madeUp.status == 404)
            #expect(madeUp.errorCode == "unknown_path")
            #expect(!madeUp.isFromTheServer)
            let wrongMethod = try await Self.send("delete", baseURL + "/v1/orders")
            #expect(!wrongMethod.isFromTheServer, "\(wrongMethod)")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.errorCode == "method_not_allowed")
            #expect(wrongMethod.allow == "POST")
            let trace = try await Self.send("trace", baseURL + "/v1/admin/players/p/timeline")
            #expect(trace.status == 405)
            #expect(trace.allow == "GET")
        }
    }

    // MARK: A server on a loopback port

    static func makeServer(store: any LedgerStore) throws -> PurchaseServer {
        var logger = Logger(label: "openapi-test")
        logger.logLevel = .critical
        return try PurchaseServer(
            configuration: ServerConfiguration(playerTokenSecret: "test-player-secret", adminKey: "test-admin-key-123"),
            store: store, trustRoots: .apple, logger: logger)
    }

    /// Runs `body` with the base URL of a fresh server (empty in-memory ledger) on
    /// 127.0.0.1, then stops the server.
    static func withServer(_ body: (String) async throws -> Void) async throws {
        let store = try SQLiteLedgerStore.inMemory()
        try await store.migrate()
        var logger = Logger(label: "openapi-test")
        logger.logLevel = .critical
        let router = Router()
        try makeServer(store: store).addRoutes(to: router)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        var failure: (any Error)?
        if port > 0 {
            do {
                try await body("http://127.0.0.1:\(port)")
            } catch {
                failure = error
            }
        } else {
            failure = OpenAPIDocumentError("the server did not start")
        }
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        try await store.close()
        if let failure { throw failure }
    }

    /// An answer: status and body.
    struct Answer: CustomStringConvertible {
        var status: Int
        var body: Data
        /// The `Allow` header.
        var allow: String?

        /// The `error` of a JSON error body.
        var errorCode: String? {
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            guard let code = object?["error"] as? String, object?["message"] is String else { return nil }
            return code
        }

        /// Whether a route of the server answered: a path without a route is answered 404
        /// `unknown_path` (or, outside `/v1/`, Hummingbird's empty 404), a method without a
        /// route 405; a route's own 404s carry another code.
        var isFromTheServer: Bool {
            status != 405 && (status != 404 || (errorCode != nil && errorCode != "unknown_path"))
        }

        var description: String { "HTTP \(status) \(String(decoding: body.prefix(300), as: UTF8.self))" }
    }

    /// Sends a request without body or credentials.
    static func send(_ method: String, _ url: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method.uppercased())
        let response = try await HTTPClient.loopback.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(
            status: Int(response.status.code), body: Data(bytes.readableBytesView),
            allow: response.headers.first(name: "Allow"))
    }
}
