import Foundation
import Ledger
import Mustache

/// What the layout shows around every page: the language, who is signed in, the form token,
/// where the request went (for the language links and the current navigation entry), and a
/// notice code from the query.
struct ConsoleChrome: Sendable {
    /// The answer's language.
    var language: ConsoleLanguage
    /// The signed-in session; `nil` on the sign-in and public error pages.
    var session: StaffSession?
    /// The token every form of the page carries in its hidden `csrf` field.
    var csrf: String
    /// The request's path and query (`/console/players/alice?before=9`).
    var location: String
    /// A `notice` code from the query (after a redirect), shown when the strings know it.
    var notice: String?
}

/// Renders console pages: each page's template, wrapped by `layout.mustache`, with the
/// strings of the language as `t`.
struct ConsoleRenderer: Sendable {
    private let library: MustacheLibrary
    /// The strings by language.
    let strings: [ConsoleLanguage: [String: String]]

    /// Parses every template, each escaping as `ConsoleHTMLEscaping` does.
    init(resources: ConsoleResources) throws {
        ConsoleHTMLEscaping.register()
        var library = MustacheLibrary()
        for (name, text) in resources.templates {
            do {
                try library.register(ConsoleHTMLEscaping.pragmaLine + text, named: name)
            } catch {
                throw ConsoleResources.LoadError(description: "templates/\(name).mustache: \(error)")
            }
        }
        guard library.getTemplate(named: "layout") != nil else {
            throw ConsoleResources.LoadError(description: "templates/layout.mustache is missing")
        }
        self.library = library
        strings = resources.strings
    }

    /// The string `key` in `language` (the key itself when missing, so a gap shows).
    func text(_ key: String, _ language: ConsoleLanguage) -> String {
        strings[language]?[key] ?? strings[.english]?[key] ?? key
    }

    /// Whether `key` is a string of the console.
    func has(_ key: String) -> Bool {
        strings[.english]?[key] != nil
    }

    /// The whole HTML document of `page`.
    func render(_ page: ConsolePage, chrome: ConsoleChrome) -> String {
        let language = chrome.language
        var values: [String: Any] = page.values
        let title = text(page.titleKey, language) + (page.titleDetail.map { " · \($0)" } ?? "")
        values["t"] = strings[language] ?? [:]
        values["lang"] = language.rawValue
        values["langEn"] = language == .english
        values["langZh"] = language == .simplifiedChinese
        values["title"] = title
        values["csrf"] = chrome.csrf
        values["langBack"] = ConsoleURL.queryValue(chrome.location)
        if let session = chrome.session {
            values["staff"] = [
                "name": session.staffName, "role": session.role.rawValue,
                "roleLabel": text("role_\(session.role.rawValue)", language),
            ]
            values["canAct"] = session.role >= .agent
            values["isAdmin"] = session.role == .admin
            values["nav"] = navigation(role: session.role, location: chrome.location, language: language)
        } else {
            values["canAct"] = false
            values["isAdmin"] = false
        }
        if let error = page.error {
            var shown = ["code": error.code, "text": errorText(error.code, language)]
            if let detail = error.detail { shown["detail"] = detail }
            values["error"] = shown
        } else {
            values.removeValue(forKey: "error")
        }
        if let notice = page.notice ?? chrome.notice, has("notice_\(notice)") {
            values["notice"] = ["code": notice, "text": text("notice_\(notice)", language)]
        } else {
            values.removeValue(forKey: "notice")
        }
        let body = library.render(values, withTemplate: page.template) ?? "<p>missing template \(page.template)</p>"
        values["body"] = body
        return library.render(values, withTemplate: "layout") ?? body
    }

    /// The localized message of an error code (`error_<code>`, else a generic one).
    func errorText(_ code: String, _ language: ConsoleLanguage) -> String {
        has("error_\(code)") ? text("error_\(code)", language) : text("error_unexpected", language)
    }

    private func navigation(role: StaffRole, location: String, language: ConsoleLanguage) -> [[String: Any]] {
        var entries: [(id: String, href: String, key: String)] = [
            ("home", "/console/", "nav_home"),
            ("owed", "/console/owed", "nav_owed"),
            ("overview", "/console/overview", "nav_overview"),
        ]
        if role == .admin {
            entries.append(("audit", "/console/audit", "nav_audit"))
            entries.append(("staff", "/console/staff", "nav_staff"))
        }
        let path = location.split(separator: "?", maxSplits: 1).first.map(String.init) ?? location
        return entries.map { entry in
            let current = entry.href == "/console/" ? (path == "/console/" || path == "/console") : path == entry.href
            return ["id": entry.id, "href": entry.href, "label": text(entry.key, language), "current": current]
        }
    }
}
