import AppStoreModel
import Foundation

/// Sends App Store Server Notifications V2 to the configured URL the way the App Store
/// does.
///
/// Each notification is a signed payload (JWS) identified by its `notificationUUID`. It is
/// POSTed as `{"signedPayload": "…"}` with `Content-Type: application/json`. HTTP 200 is
/// success; anything else (another status, a refused connection, a timeout) is a failed
/// attempt, retried on ``NotificationRetrySchedule/apple`` (1, 12, 24, 48 and 72 hours after
/// the previous attempt, six attempts at most), every wait multiplied by ``timeScale``.
///
/// Every attempt is reported to the `onAttempt` handler, awaited before anything else
/// happens to that notification, so the emulator can persist it. After a restart,
/// ``submit(uuid:signedPayload:attemptsMade:lastAttempt:)`` resumes an undelivered
/// notification on its schedule. ``NotificationFaults`` drop, duplicate or delay sends.
///
/// The Play side's Pub/Sub pushes go through a dispatcher of their own, made with another
/// body (``submit(uuid:body:attemptsMade:lastAttempt:)``), the statuses that acknowledge a
/// push and ``NotificationRetrySchedule/pubSubPush``.
///
/// Call ``shutdown()`` when done: pending retries keep the dispatcher alive until then.
public actor NotificationDispatcher {
    /// What ``submit(uuid:signedPayload:attemptsMade:lastAttempt:)`` did with a notification.
    public enum Submission: Hashable, Sendable {
        /// Delivery started: the next attempt is pending.
        case scheduled
        /// The faults dropped it: it is never sent.
        case dropped
        /// No URL is configured: nothing is sent.
        case noURL
        /// It has already had every attempt the schedule allows.
        case exhausted
        /// A delivery of the same `notificationUUID` is already pending; nothing changed.
        case alreadyPending
        /// ``shutdown()`` was called.
        case shutDown
    }

    /// Receives each send attempt once its outcome is known.
    public typealias AttemptHandler = @Sendable (NotificationSendAttempt) async -> Void

    /// The notification URL; `nil` when none is configured.
    public private(set) var url: URL?
    /// The faults injected into sends from now on.
    public private(set) var faults: NotificationFaults
    /// The factor every wait of the schedule is multiplied by (1 is real time).
    public nonisolated let timeScale: Double
    /// The retry schedule.
    public nonisolated let schedule: NotificationRetrySchedule
    /// The HTTP statuses that count as delivered: Apple's 200 only, Pub/Sub's 2xx.
    public nonisolated let acknowledgingStatusCodes: Set<Int>

    private let transport: any NotificationTransport
    private let clock: any NotificationClock
    private let onAttempt: AttemptHandler
    private let beforeSending: @Sendable () async throws -> Void
    private var deliveries: [String: Delivery] = [:]
    private var nextToken: UInt64 = 0
    private var isShutDown = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    private struct Delivery {
        let token: UInt64
        let task: Task<Void, Never>
    }

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - url: Where notifications go; `nil` sends nothing.
    ///   - transport: How they go; by default an ``HTTPNotificationTransport`` on
    ///     `HTTPClient.shared` with a timeout of
    ///     ``HTTPNotificationTransport/timeout(forTimeScale:)``.
    ///   - timeScale: The factor every wait of `schedule` is multiplied by; for example
    ///     0.0001 turns one hour into 0.36 seconds. Must be finite and not negative.
    ///   - faults: The faults to inject.
    ///   - schedule: The retry schedule; Apple's by default.
    ///   - clock: The time source; the system clock by default.
    ///   - acknowledgingStatusCodes: The HTTP statuses that count as delivered; Apple's 200
    ///     by default.
    ///   - onAttempt: Receives every attempt.
    ///   - beforeSending: Awaited before a notification's first attempt; when it throws, the
    ///     delivery ends without an attempt. The emulator waits there for its journal, so
    ///     no notification tells of state a power cut could take back.
    public init(
        url: URL?,
        transport: (any NotificationTransport)? = nil,
        timeScale: Double = 1,
        faults: NotificationFaults = .none,
        schedule: NotificationRetrySchedule = .apple,
        clock: any NotificationClock = SystemNotificationClock(),
        acknowledgingStatusCodes: Set<Int> = [200],
        onAttempt: @escaping AttemptHandler = { _ in },
        beforeSending: @escaping @Sendable () async throws -> Void = {}
    ) {
        precondition(timeScale.isFinite && timeScale >= 0, "timeScale must be finite and not negative")
        self.url = url
        self.transport =
            transport ?? HTTPNotificationTransport(timeout: HTTPNotificationTransport.timeout(forTimeScale: timeScale))
        self.timeScale = timeScale
        self.faults = faults
        self.schedule = schedule
        self.clock = clock
        self.acknowledgingStatusCodes = acknowledgingStatusCodes
        self.onAttempt = onAttempt
        self.beforeSending = beforeSending
    }

    /// The UUIDs of the notifications whose delivery is pending (waiting for or making an
    /// attempt).
    public var pendingNotificationUUIDs: Set<String> { Set(deliveries.keys) }

    /// Starts delivering a notification.
    ///
    /// A new notification is sent at once. To resume one after a restart, pass the attempts
    /// already made and the date of the last one: the next attempt happens when the schedule
    /// says (at once if overdue), and the total never exceeds
    /// ``NotificationRetrySchedule/maximumAttempts``. When `attemptsMade` is positive but
    /// `lastAttempt` is unknown, the next attempt is made at once.
    ///
    /// Whether the faults drop the notification is decided here, once.
    ///
    /// - Parameters:
    ///   - uuid: The notification's `notificationUUID`.
    ///   - signedPayload: The signed notification (JWS compact serialization).
    ///   - attemptsMade: Attempts already made (negative counts as zero).
    ///   - lastAttempt: When the last of them was made.
    /// - Returns: What happened to the notification.
    @discardableResult
    public func submit(
        uuid: String, signedPayload: String, attemptsMade: Int = 0, lastAttempt: Date? = nil
    ) -> Submission {
        submit(
            uuid: uuid, body: Self.body(signedPayload: signedPayload), attemptsMade: attemptsMade,
            lastAttempt: lastAttempt)
    }

    /// Starts delivering a notification whose POST body is `body`, as
    /// ``submit(uuid:signedPayload:attemptsMade:lastAttempt:)`` does Apple's.
    ///
    /// - Parameters:
    ///   - uuid: The notification's id (a Pub/Sub push's `messageId`).
    ///   - body: The JSON body each attempt POSTs.
    ///   - attemptsMade: Attempts already made (negative counts as zero).
    ///   - lastAttempt: When the last of them was made.
    /// - Returns: What happened to the notification.
    @discardableResult
    public func submit(uuid: String, body: Data, attemptsMade: Int = 0, lastAttempt: Date? = nil) -> Submission {
        let attemptsMade = max(attemptsMade, 0)
        guard !isShutDown else { return .shutDown }
        guard url != nil else { return .noURL }
        guard attemptsMade < schedule.maximumAttempts else { return .exhausted }
        guard deliveries[uuid] == nil else { return .alreadyPending }
        guard !faults.drops(uuid: uuid) else { return .dropped }

        let token = nextToken
        nextToken += 1
        let task = Task {
            await self.deliver(
                token: token, uuid: uuid, body: body, attemptsMade: attemptsMade, lastAttempt: lastAttempt)
        }
        deliveries[uuid] = Delivery(token: token, task: task)
        return .scheduled
    }

    /// Replaces the faults; they apply to attempts not yet made (a pending notification is
    /// not dropped after its submission).
    public func updateFaults(_ faults: NotificationFaults) {
        self.faults = faults
    }

    /// Replaces the notification URL. Pending notifications make their next attempts to
    /// the new URL; with `nil`, they end without further attempts.
    public func setURL(_ url: URL?) {
        self.url = url
    }

    /// Returns once no delivery is pending: every notification submitted so far has
    /// succeeded, used up its attempts, or ended. With real waits this can take days.
    public func waitUntilIdle() async {
        guard !deliveries.isEmpty else { return }
        await withCheckedContinuation { continuation in
            idleWaiters.append(continuation)
        }
    }

    /// Cancels every pending delivery and refuses new submissions; returns once they have
    /// stopped, so that no attempt is reported afterwards.
    ///
    /// An attempt cut short is not reported: resubmitted after a restart, it is made again.
    public func shutdown() async {
        isShutDown = true
        let tasks = deliveries.values.map(\.task)
        for task in tasks {
            task.cancel()
        }
        for task in tasks {
            await task.value
        }
    }

    private func deliver(token: UInt64, uuid: String, body: Data, attemptsMade: Int, lastAttempt: Date?) async {
        defer { finish(uuid: uuid, token: token) }
        do { try await beforeSending() } catch { return }
        var attemptsMade = attemptsMade
        var lastAttempt = lastAttempt
        while attemptsMade < schedule.maximumAttempts {
            if attemptsMade > 0, let lastAttempt,
                let due = schedule.nextAttemptDate(afterAttempt: attemptsMade, at: lastAttempt, timeScale: timeScale)
            {
                guard await sleep(until: due) else { return }
            }
            let attemptNumber = attemptsMade + 1
            let injected = faults.attemptFaults(uuid: uuid, attemptNumber: attemptNumber)
            if injected.extraDelay > .zero {
                guard await sleep(for: injected.extraDelay) else { return }
            }
            guard !Task.isCancelled, let url else { return }

            let attemptDate = clock.now
            let result = await transport.post(body, to: url)
            let delivered = result.statusCode.map(acknowledgingStatusCodes.contains) ?? false
            if injected.duplicate, !Task.isCancelled {
                _ = await transport.post(body, to: url)
            }
            // A failure while cancelled is most likely the cancellation itself: not reported.
            if Task.isCancelled, case .failure = result { return }

            attemptsMade = attemptNumber
            lastAttempt = attemptDate
            let nextAttemptDate =
                delivered
                ? nil : schedule.nextAttemptDate(afterAttempt: attemptNumber, at: attemptDate, timeScale: timeScale)
            await onAttempt(
                NotificationSendAttempt(
                    notificationUUID: uuid, attemptNumber: attemptNumber, attemptDate: attemptDate,
                    sendAttemptResult: delivered
                        ? .success
                        : result.statusCode == nil ? result.sendAttemptResult : .unsuccessfulHTTPResponseCode,
                    statusCode: result.statusCode,
                    nextAttemptDate: nextAttemptDate
                )
            )
            if delivered { return }
        }
    }

    /// The longest single sleep, in seconds (about 31 years): a longer wait (a huge time
    /// scale, an attempt date far in the future read back from a journal) is slept in
    /// steps, because `Duration.seconds(_:)` and `Task.sleep(for:)` trap on waits of
    /// about 1e19 seconds and more.
    private static let longestSleepSeconds: TimeInterval = 1e9

    /// Sleeps on the clock until `date`; `false` when cancelled.
    private func sleep(until date: Date) async -> Bool {
        var wait = date.timeIntervalSince(clock.now)
        while wait > Self.longestSleepSeconds {
            guard await sleep(for: .seconds(Self.longestSleepSeconds)) else { return false }
            wait -= Self.longestSleepSeconds
        }
        return wait > 0 ? await sleep(for: .seconds(wait)) : true
    }

    /// Sleeps on the clock; `false` when cancelled.
    private func sleep(for duration: Duration) async -> Bool {
        do {
            try await clock.sleep(for: duration)
        } catch {
            return false
        }
        return !Task.isCancelled
    }

    private func finish(uuid: String, token: UInt64) {
        if deliveries[uuid]?.token == token {
            deliveries[uuid] = nil
        }
        guard deliveries.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// The JSON body Apple posts: `{"signedPayload": "…"}`.
    static func body(signedPayload: String) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a struct of one string cannot fail.
        return try! encoder.encode(ResponseBodyV2(signedPayload: signedPayload))
    }
}
