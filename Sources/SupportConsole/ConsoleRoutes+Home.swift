import Foundation
import Hummingbird

extension ConsoleRoutes {
    /// The most owed transactions the home page counts (it shows "500+" beyond).
    static var owedCountLimit: Int { 500 }

    /// `GET /console/`: the search box and the size of the owed queue.
    func addHomePage() {
        let core = core
        page("", role: .viewer) { _, _, _ in
            let owed = try await core.store.owedTransactions(
                learnedBefore: Date().addingTimeInterval(-core.settings.owedAfterSeconds),
                limit: Self.owedCountLimit + 1)
            let count =
                owed.count > Self.owedCountLimit
                ? ConsoleFormat.count(Self.owedCountLimit) + "+" : ConsoleFormat.count(owed.count)
            return ConsolePage(
                template: "home", titleKey: "title_home",
                values: ["owedCount": count, "owedAny": !owed.isEmpty])
        }
    }
}
