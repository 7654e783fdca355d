import Ledger
import PurchaseServer

/// The support pages and actions of the console (search, player, grant, transaction,
/// order, Apple order, owed queue, deliver, reconcile, overview): what each answers, apart
/// from how it is registered (``ConsoleRoutes/addSupportPages()``).
struct SupportPages: Sendable {
    /// The shared machinery.
    let core: ConsoleCore

    /// The purchase server the console works on.
    var server: PurchaseServer { core.server }
    /// Its ledger.
    var store: any LedgerStore { core.store }
    /// The console's settings.
    var settings: ConsoleSettings { core.settings }

    /// The string `key` in the caller's language.
    func text(_ key: String, _ caller: ConsoleCaller) -> String {
        core.renderer.text(key, caller.language)
    }

    /// The string `<prefix><value>` in the caller's language when the console has it, else
    /// `value` itself (a source, a status or an event type the strings do not name).
    func label(_ prefix: String, _ value: String, _ caller: ConsoleCaller) -> String {
        core.renderer.has(prefix + value) ? core.renderer.text(prefix + value, caller.language) : value
    }
}
