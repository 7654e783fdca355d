import Foundation
import Hummingbird
import Ledger

extension ConsoleRoutes {
    /// `GET /console/staff` and the staff actions (admin): add, disable, reset password.
    func addStaffPages() {
        let core = core
        page("staff", role: .admin) { _, _, caller in
            try await caller.audit(action: "view_staff")
            return try await core.staffPage(caller: caller, error: nil, notice: nil)
        }
        action("staff", role: .admin) { _, _, caller, form in
            let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
            guard StaffNames.problem(with: name) == nil else {
                return .page(try await core.staffPage(caller: caller, error: ConsoleError(code: "invalid_name")))
            }
            guard let role = form["role"].flatMap(StaffRole.init(rawValue:)) else {
                return .page(try await core.staffPage(caller: caller, error: ConsoleError(code: "invalid_role")))
            }
            let password = StaffCredentials.generatePassword()
            let secret = form["totp"] == "1" ? StaffCredentials.generateTOTPSecret() : nil
            let now = Date()
            do {
                try await core.store.createStaff(
                    StaffAccount(
                        name: name, role: role,
                        passwordHash: await StaffCredentials.hashInBackground(
                            password, cost: core.settings.passwordHashCost),
                        totpSecret: secret,
                        createdAt: now, passwordChangedAt: now))
            } catch LedgerError.duplicateStaff {
                return .page(
                    try await core.staffPage(
                        caller: caller, error: ConsoleError(code: "duplicate_staff", status: .conflict, detail: name)))
            }
            try await caller.audit(
                action: "staff_add", target: name,
                detail: ["role": role.rawValue, "totp": secret == nil ? "no" : "yes"])
            return .page(Self.credentialsPage(name: name, password: password, secret: secret, added: true))
        }
        action("staff/:name/disable", role: .admin) { _, context, caller, _ in
            let name = try context.consoleParameter("name", maximumBytes: 64)
            guard name != caller.name else {
                return .page(try await core.staffPage(caller: caller, error: ConsoleError(code: "cannot_disable_self")))
            }
            guard try await core.store.disableStaff(name: name) else { throw ConsoleError.notFound(name) }
            try await caller.audit(action: "staff_disable", target: name)
            return .redirect(to: "/console/staff", notice: "staff_disabled")
        }
        action("staff/:name/reset-password", role: .admin) { _, context, caller, form in
            let name = try context.consoleParameter("name", maximumBytes: 64)
            guard let account = try await core.store.staff(name: name) else { throw ConsoleError.notFound(name) }
            let password = StaffCredentials.generatePassword()
            let secret: String?
            let totp: String
            switch form["totp"] ?? "keep" {
            case "new": (secret, totp) = (StaffCredentials.generateTOTPSecret(), "new")
            case "remove": (secret, totp) = (nil, "remove")
            default: (secret, totp) = (account.totpSecret, "keep")
            }
            guard
                try await core.store.resetStaffPassword(
                    name: name,
                    passwordHash: await StaffCredentials.hashInBackground(
                        password, cost: core.settings.passwordHashCost), totpSecret: secret)
            else { throw ConsoleError.notFound(name) }
            try await caller.audit(
                action: "staff_reset_password", target: name, detail: ["totp": totp])
            let shownSecret = secret != nil && secret != account.totpSecret ? secret : nil
            return .page(Self.credentialsPage(name: name, password: password, secret: shownSecret, added: false))
        }
    }

    /// The page that shows a new password (and a new second factor) once.
    private static func credentialsPage(name: String, password: String, secret: String?, added: Bool) -> ConsolePage {
        var values: [String: any Sendable] = ["name": name, "password": password, "added": added]
        if let secret {
            values["totpSecret"] = secret
            values["otpauth"] = StaffCredentials.authenticatorURL(secret: secret, account: name)
        }
        var page = ConsolePage(template: "staff-credentials", titleKey: "title_staff", values: values)
        page.notice = added ? "staff_added" : "password_reset"
        return page
    }
}

extension ConsoleCore {
    /// The staff list with the add form, with `error` or `notice` shown.
    func staffPage(caller: ConsoleCaller, error: ConsoleError?, notice: String? = nil) async throws -> ConsolePage {
        let rows: [[String: any Sendable]] = try await store.staffAccounts().map { account in
            [
                "name": account.name, "role": account.role.rawValue,
                "roleLabel": renderer.text("role_\(account.role.rawValue)", caller.language),
                "twoFactor": account.totpSecret != nil,
                "disabled": account.disabledAt != nil,
                "isSelf": account.name == caller.name,
                "created": ConsoleFormat.date(account.createdAt, language: caller.language),
                "passwordChanged": ConsoleFormat.date(account.passwordChangedAt, language: caller.language),
                "path": ConsoleURL.pathSegment(account.name),
            ]
        }
        var page = ConsolePage(
            template: "staff", titleKey: "title_staff",
            values: [
                "accounts": rows,
                "roles": StaffRole.allCases.map { role in
                    ["value": role.rawValue, "label": renderer.text("role_\(role.rawValue)", caller.language)]
                },
            ],
            status: error?.status ?? .ok)
        page.error = error
        page.notice = notice
        return page
    }
}
