import AppStoreModel
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// Get App Transaction Info and Get All Subscription Statuses, under `{prefix}/inApps`
    /// (`api`), behind the Server API's authentication and faults.
    nonisolated func addAppDataRoutes<Context: RequestContext>(
        to api: RouterGroup<Context>,
        environment: AppStoreEnvironment
    ) {
        api.get("v1/transactions/appTransactions/:transactionId") { request, context in
            await self.serverAPI(request, .getAppTransactionInfo) {
                let id = try ServerAPIValidation.transactionId(try context.parameters.require("transactionId"))
                return JSONResponse.make(try await self.appTransactionInfo(id, environment: environment))
            }
        }
        api.get("v1/subscriptions/:transactionId") { request, context in
            await self.serverAPI(request, .getAllSubscriptionStatuses) {
                let id = try ServerAPIValidation.transactionId(try context.parameters.require("transactionId"))
                let statuses = try Self.statusFilter(request.uri.queryParameters.getAll("status"))
                return JSONResponse.make(
                    try await self.subscriptionStatuses(id, statuses: statuses, environment: environment))
            }
        }
    }

    /// The repeatable `status` query parameter of Get All Subscription Statuses: Apple's
    /// statuses 1 to 5; 400 with 4000031 for anything else.
    private static func statusFilter(_ values: [String]) throws(APIError) -> Set<SubscriptionStatus> {
        var statuses: Set<SubscriptionStatus> = []
        for value in values {
            guard let number = Int(value), (1...5).contains(number) else {
                throw APIError(status: 400, code: .invalidStatus, "status must be 1 to 5, not \(value)")
            }
            statuses.insert(SubscriptionStatus(rawValue: number))
        }
        return statuses
    }
}
