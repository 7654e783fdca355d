import Foundation

/// The player's entitlements from the server, cached for offline use.
extension PurchasePipeline {
    /// The signed-in player's entitlements.
    ///
    /// With `refresh` it asks the server (`GET /v1/players/me/entitlements`) and caches
    /// the answer (``PipelineConfiguration/entitlementCache``). Without `refresh`, or when
    /// the server cannot answer, it serves the last answer cached for this player, marked
    /// ``EntitlementSnapshot/isCached`` with its ``EntitlementSnapshot/fetchedAt``, each
    /// entitlement standing as at now by the device's clock: one past its `until` no longer
    /// entitles (its state reads `expired`), whatever the cached answer said. Nothing
    /// cached: an empty cached snapshot with no `fetchedAt`. No player signed in: an empty
    /// snapshot with no player.
    public func entitlements(refresh: Bool = true) async -> EntitlementSnapshot {
        guard let player else {
            return EntitlementSnapshot(playerId: nil, entitlements: [], isCached: false, fetchedAt: nil)
        }
        return await entitlements(of: player, refresh: refresh)
    }

    /// ``entitlements(refresh:)`` of `playerId`.
    func entitlements(of playerId: String, refresh: Bool) async -> EntitlementSnapshot {
        guard refresh else { return await cachedSnapshot(of: playerId, refreshFailure: nil) }
        let failure: String
        do {
            let token = try await configuration.tokens(playerId)
            return await remember(try await configuration.server.entitlements(token: token), of: playerId)
        } catch let error as ServerCallError {
            failure = error.reason
        } catch {
            failure = "client_unavailable"
        }
        return await cachedSnapshot(of: playerId, refreshFailure: failure)
    }

    /// Caches the server's answer for `playerId` (in memory, then in the file: a failed
    /// file write is logged, the answer still served) and returns it as a fresh snapshot.
    func remember(_ entitlements: [PlayerEntitlement], of playerId: String) async -> EntitlementSnapshot {
        let cached = CachedEntitlements(
            playerId: playerId, fetchedAt: configuration.clock.now, entitlements: entitlements)
        cachedEntitlements[playerId] = cached
        do {
            try await configuration.entitlementCache?.store(cached)
        } catch {
            await log("entitlement_cache_unwritable", playerId: playerId, attributes: ["error": "\(error)"])
        }
        return EntitlementSnapshot(
            playerId: playerId, entitlements: entitlements, isCached: false, fetchedAt: cached.fetchedAt)
    }

    private func cachedSnapshot(of playerId: String, refreshFailure: String?) async -> EntitlementSnapshot {
        var cached = cachedEntitlements[playerId]
        if cached == nil { cached = await configuration.entitlementCache?.load(playerId: playerId) }
        guard let cached else {
            return EntitlementSnapshot(
                playerId: playerId, entitlements: [], isCached: true, fetchedAt: nil, refreshFailure: refreshFailure)
        }
        return cached.snapshot(at: configuration.clock.now, refreshFailure: refreshFailure)
    }
}
