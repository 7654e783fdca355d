import AppStoreEmulator
import AsyncHTTPClient
import EmulatorTestSupport
import Foundation
import Ledger
import LedgerTestSupport
import Logging
import NIOCore
import PurchaseServer
import StoreKeeperDev

@testable import SupportConsole

/// A ``DevStack`` (purchase server, emulator and support console on one loopback port) on a
/// fresh database, with staff accounts and browsers (``ConsoleBrowser``) that keep cookies.
final class ConsoleFixture: Sendable {
    let database: TestDatabase
    let stack: DevStack
    private let emulatorDirectory: URL
    private let client: HTTPClient

    /// Starts everything; `configure` adjusts the server configuration (e.g. `console`).
    init(
        _ kind: StoreKind = .sqlite, notifications: Bool = true,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws {
        database = try await kind.makeDatabase()
        emulatorDirectory = try TestEmulatorDirectory.make("console-emulator")
        var configuration = ServerConfiguration(
            deploymentEnvironment: .sandbox, allowedEnvironments: [.sandbox, .production],
            playerTokenSecret: "test-player-secret", adminKey: "test-admin-key-0001",
            answerConsumptionRequests: true, reconcilerIntervalSeconds: 0)
        configure(&configuration)
        var logger = Logger(label: "storekeeper-console-test")
        logger.logLevel = .warning
        stack = try await DevStack(
            DevStackConfiguration(
                databaseURL: database.url, emulatorDirectory: emulatorDirectory, sendsNotifications: notifications,
                notificationTimeScale: 0.00001, server: configuration, runsBackgroundServices: false,
                appleTimeoutSeconds: 20, logger: logger))
        // Idle connections are closed after 2 s, before the server's 30 s idle timeout closes
        // them: a request must not go out on a connection the server is closing.
        client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow, connectionPool: .init(idleTimeout: .seconds(2))))
    }

    /// The emulated App Store.
    var emulator: AppStoreEmulator { stack.emulator }

    /// The server's ledger.
    var store: any LedgerStore {
        get async throws { try await stack.store }
    }

    /// Where the stack answers, e.g. `http://127.0.0.1:51234`.
    var base: String {
        get async { await stack.baseURL.absoluteString }
    }

    /// The bcrypt cost of the accounts tests make and of the consoles they run
    /// (``ConsoleSettings/passwordHashCost``): the lowest bcrypt allows, so that the suite's
    /// sign-ins do not hold the machine's cores (a hash carries its cost).
    static let testBcryptCost: UInt8 = 4

    /// Adds a staff account with a generated password (and a TOTP secret when `totp`).
    @discardableResult
    func addStaff(_ name: String, role: StaffRole, totp: Bool = false) async throws -> StaffLogin {
        let password = StaffCredentials.generatePassword()
        let secret = totp ? StaffCredentials.generateTOTPSecret() : nil
        let now = Date()
        try await store.createStaff(
            StaffAccount(
                name: name, role: role, passwordHash: StaffCredentials.hash(password, cost: Self.testBcryptCost),
                totpSecret: secret,
                createdAt: now, passwordChangedAt: now))
        return StaffLogin(name: name, password: password, totpSecret: secret)
    }

    /// A browser without cookies.
    func browser() async -> ConsoleBrowser {
        ConsoleBrowser(client: client, base: await base)
    }

    /// A browser signed in as a new account `name` of `role`.
    func signedIn(_ name: String, role: StaffRole) async throws -> ConsoleBrowser {
        let login = try await addStaff(name, role: role)
        let browser = await browser()
        let answer = try await browser.signIn(login)
        guard answer.status == 303 else { throw ConsoleTestError("sign-in of \(name) answered \(answer.status)") }
        return browser
    }

    /// Stops everything and removes the files.
    func shutdown() async {
        try? await client.shutdown()
        await stack.stop()
        database.remove()
        try? FileManager.default.removeItem(at: emulatorDirectory)
    }
}

/// Runs `body` with a fresh ``ConsoleFixture`` (its console configured with `settings`)
/// and shuts it down, whether `body` throws or not.
func withConsole(
    _ kind: StoreKind = .sqlite, settings: ConsoleSettings = ConsoleSettings(),
    _ body: (ConsoleFixture) async throws -> Void
) async throws {
    let fixture = try await ConsoleFixture(kind) {
        $0.console = settings
        $0.console.passwordHashCost = Int(ConsoleFixture.testBcryptCost)
    }
    do {
        try await body(fixture)
    } catch {
        await fixture.shutdown()
        throw error
    }
    await fixture.shutdown()
}

/// A staff account's sign-in data.
struct StaffLogin: Sendable {
    var name: String
    var password: String
    var totpSecret: String?
}

/// A console answer.
struct ConsoleAnswer: Sendable, CustomStringConvertible {
    var status: Int
    /// Header values by lower-case name (all values of repeated headers).
    var headers: [String: [String]]
    var body: String

    /// The first value of header `name`.
    func header(_ name: String) -> String? { headers[name.lowercased()]?.first }

    /// The `Set-Cookie` header of cookie `name`.
    func setCookie(_ name: String) -> String? {
        headers["set-cookie"]?.first { $0.hasPrefix("\(name)=") }
    }

    /// The `data-code` of the page's `#error`.
    var errorCode: String? { Self.attribute("data-code", ofElementWithId: "error", in: body) }
    /// The `data-code` of the page's `#notice`.
    var noticeCode: String? { Self.attribute("data-code", ofElementWithId: "notice", in: body) }

    /// The first hidden `csrf` field's value.
    var csrfField: String? {
        guard let range = body.range(of: #"name="csrf" value=""#) else { return nil }
        return String(body[range.upperBound...].prefix { $0 != "\"" })
    }

    /// How many times `text` occurs in the body.
    func count(_ text: String) -> Int { body.components(separatedBy: text).count - 1 }

    var description: String { "\(status) \(errorCode ?? "")\n\(body.prefix(2_000))" }

    static func attribute(_ name: String, ofElementWithId id: String, in html: String) -> String? {
        guard let element = html.range(of: #"id="\#(id)""#) else { return nil }
        let start = html[..<element.lowerBound].lastIndex(of: "<") ?? element.lowerBound
        let tag = html[start...].prefix { $0 != ">" }
        guard let attribute = tag.range(of: #"\#(name)=""#) else { return nil }
        return String(tag[attribute.upperBound...].prefix { $0 != "\"" })
    }
}

/// A browser of the console: keeps the cookies the console sets, sends forms, does not
/// follow redirects.
actor ConsoleBrowser {
    private let client: HTTPClient
    let base: String
    private(set) var cookies: [String: String] = [:]
    /// Headers sent with every request (e.g. `Accept-Language`).
    var extraHeaders: [(String, String)] = []

    init(client: HTTPClient, base: String) {
        self.client = client
        self.base = base
    }

    /// Sets (or with `nil` removes) a cookie by hand.
    func setCookie(_ name: String, _ value: String?) {
        cookies[name] = value
    }

    func setHeader(_ name: String, _ value: String) {
        extraHeaders.append((name, value))
    }

    /// `GET path`.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> ConsoleAnswer {
        try await send("GET", path, body: nil, headers: headers)
    }

    /// `POST path` with an urlencoded form.
    func post(_ path: String, form: [(String, String)], headers: [(String, String)] = []) async throws
        -> ConsoleAnswer
    {
        let body = form.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(
            "POST", path, body: body, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// `POST path` with a JSON body (the server's own API, e.g. the admin API with its key).
    func postJSON(_ path: String, json: String, headers: [(String, String)] = []) async throws -> ConsoleAnswer {
        try await send("POST", path, body: json, headers: headers + [("Content-Type", "application/json")])
    }

    /// Posts `form` plus the `csrf` token of the page at `page` (read first).
    func submit(_ path: String, form: [(String, String)], from page: String = "/console/") async throws
        -> ConsoleAnswer
    {
        let token = try await get(page).csrfField ?? ""
        return try await post(path, form: form + [("csrf", token)])
    }

    /// Opens the sign-in page and signs in.
    func signIn(_ login: StaffLogin, code: String? = nil, next: String? = nil) async throws -> ConsoleAnswer {
        try await signIn(name: login.name, password: login.password, code: code, next: next)
    }

    /// Opens the sign-in page and signs in with these fields.
    func signIn(name: String, password: String, code: String? = nil, next: String? = nil) async throws
        -> ConsoleAnswer
    {
        let page = try await get("/console/sign-in")
        var form = [("csrf", page.csrfField ?? ""), ("name", name), ("password", password), ("code", code ?? "")]
        if let next { form.append(("next", next)) }
        return try await post("/console/sign-in", form: form)
    }

    private func send(_ method: String, _ path: String, body: String?, headers: [(String, String)]) async throws
        -> ConsoleAnswer
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        for (name, value) in extraHeaders + headers { request.headers.add(name: name, value: value) }
        if !cookies.isEmpty {
            request.headers.add(
                name: "Cookie",
                value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        var headers: [String: [String]] = [:]
        for header in response.headers { headers[header.name.lowercased(), default: []].append(header.value) }
        for cookie in headers["set-cookie"] ?? [] { remember(cookie) }
        return ConsoleAnswer(
            status: Int(response.status.code), headers: headers,
            body: String(decoding: bytes.readableBytesView, as: UTF8.self))
    }

    private func remember(_ setCookie: String) {
        let parts = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        if parts.contains(where: { $0.lowercased() == "max-age=0" }) || value.isEmpty {
            cookies[name] = nil
        } else {
            cookies[name] = value
        }
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

struct ConsoleTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
