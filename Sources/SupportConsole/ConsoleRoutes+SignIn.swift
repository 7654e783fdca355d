import Foundation
import Hummingbird
import Ledger

extension ConsoleRoutes {
    /// `GET /console/sign-in`, `POST /console/sign-in`, `POST /console/sign-out`.
    func addSignInRoutes() {
        let core = core
        group.get("sign-in") { request, _ -> Response in
            let next = ConsoleURL.localPath(request.uri.queryParameters["next"].map(String.init))
            return core.signInPage(request, next: next, name: "", error: nil)
        }
        group.post("sign-in") { request, context -> Response in
            await core.signIn(request, address: core.address(of: context))
        }
        group.post("sign-out") { request, context -> Response in
            await core.signOut(request, address: core.address(of: context))
        }
    }
}

extension ConsoleCore {
    /// The sign-in form, with `error` shown; keeps (or sets) the double-submit cookie whose
    /// value the form carries in `csrf`.
    func signInPage(_ request: Request, next: String, name: String, error: ConsoleError?) -> Response {
        let existing = request.cookies[Self.signInCookie]?.value
        let token = existing.flatMap { ConsoleTokens.isWellFormed($0) ? $0 : nil } ?? ConsoleTokens.random()
        var page = ConsolePage(
            template: "sign-in", titleKey: "title_sign_in", values: ["next": next, "signInName": name],
            status: error?.status ?? .ok)
        page.error = error
        var response = respond(
            page, chrome: chrome(request, language: ConsoleLanguage.of(request), session: nil, csrf: token))
        response.setCookie(cookie(Self.signInCookie, token, maxAge: 3_600))
        return response
    }

    /// Checks the form, then the sign-in limits, the account, the password and the second
    /// factor (``authenticate(name:password:code:address:at:)``); on success starts a new
    /// session and sends the browser to `next`.
    func signIn(_ request: Request, address: String) async -> Response {
        let form: ConsoleForm
        do {
            form = try await ConsoleForm.read(request)
        } catch {
            return signInPage(
                request, next: "/console/", name: "",
                error: error as? ConsoleError ?? ConsoleError(code: "unexpected", status: .badRequest))
        }
        let next = ConsoleURL.localPath(form["next"])
        let name = String((form["name"] ?? "").prefix(64))
        let cookieToken = request.cookies[Self.signInCookie]?.value ?? ""
        guard originAllowed(request), ConsoleTokens.isWellFormed(cookieToken),
            ConsoleTokens.matches(form["csrf"], cookieToken)
        else {
            return signInPage(request, next: next, name: name, error: .csrfFailed)
        }
        do {
            let account: StaffAccount
            switch try await authenticate(
                name: form["name"] ?? "", password: form["password"] ?? "", code: form["code"] ?? "",
                address: address, at: Date())
            {
            case .failure(let refusal): return signInPage(request, next: next, name: name, error: refusal)
            case .success(let signedIn): account = signedIn
            }
            if let old = request.cookies[Self.sessionCookie]?.value, ConsoleTokens.isWellFormed(old) {
                try await store.deleteStaffSession(tokenDigest: ConsoleTokens.digest(old))
            }
            let token = ConsoleTokens.random()
            let now = Date()
            try await store.createStaffSession(
                StaffSession(
                    tokenDigest: ConsoleTokens.digest(token), staffName: account.name, role: account.role,
                    csrfToken: ConsoleTokens.random(), createdAt: now, lastSeenAt: now,
                    expiresAt: now.addingTimeInterval(settings.sessionLifetimeSeconds), address: address))
            try await store.appendAudit(
                AuditRecord(actor: account.name, action: "sign_in", address: address, createdAt: now))
            logger.info("console sign-in", metadata: ["staff": "\(account.name)", "address": "\(address)"])
            var response = redirect(to: next)
            response.setCookie(cookie(Self.sessionCookie, token, maxAge: Int(settings.sessionLifetimeSeconds)))
            response.setCookie(expiredCookie(Self.signInCookie))
            return response
        } catch {
            logger.error("console sign-in failed", metadata: ["error": "\(error)"])
            return signInPage(
                request, next: next, name: name, error: ConsoleError(code: "unexpected", status: .internalServerError))
        }
    }

    /// Ends the request's session (CSRF-checked) and sends the browser to the sign-in page.
    func signOut(_ request: Request, address: String) async -> Response {
        let language = ConsoleLanguage.of(request)
        var chrome = chrome(request, language: language, session: nil, csrf: "")
        do {
            guard let token = request.cookies[Self.sessionCookie]?.value, ConsoleTokens.isWellFormed(token),
                let session = try await session(of: request)
            else {
                var response = redirect(to: "/console/sign-in")
                response.setCookie(expiredCookie(Self.sessionCookie))
                return response
            }
            chrome.session = session
            chrome.csrf = session.csrfToken
            let form = try await ConsoleForm.read(request)
            guard originAllowed(request), ConsoleTokens.matches(form["csrf"], session.csrfToken) else {
                return respond(ConsoleError.csrfFailed, chrome: chrome)
            }
            try await store.deleteStaffSession(tokenDigest: session.tokenDigest)
            try await store.appendAudit(
                AuditRecord(actor: session.staffName, action: "sign_out", address: address, createdAt: Date()))
            var response = redirect(to: "/console/sign-in?notice=signed_out")
            response.setCookie(expiredCookie(Self.sessionCookie))
            return response
        } catch {
            return respond(thrown: error, chrome: chrome)
        }
    }
}
