import AppStoreModel
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AppStoreEmulator

@Suite(.timeLimit(.minutes(3)))
struct NotificationDispatcherTests {
    private let url = URL(string: "http://127.0.0.1:9/notifications")!
    private static let hour: TimeInterval = 3600

    // MARK: Delivery and retries

    @Test func firstAttemptIsImmediateAndPostsTheSignedPayload() async throws {
        let transport = FakeTransport()
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(url: url, transport: transport, onAttempt: log.record)
        let submitted = ContinuousClock.now

        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "header.payload.signature") == .scheduled)
        await dispatcher.waitUntilIdle()

        let posts = await transport.posts
        try #require(posts.count == 1)
        #expect(posts[0].url == url)
        // Immediate rather than on the retry schedule (an hour at this time scale); a loaded
        // test machine has been seen to start it 13 s late.
        #expect(posts[0].instant - submitted < .seconds(60))
        let body = try JSONDecoder().decode(ResponseBodyV2.self, from: posts[0].body)
        #expect(body.signedPayload == "header.payload.signature")
        let json = try JSONSerialization.jsonObject(with: posts[0].body) as? [String: String]
        #expect(json == ["signedPayload": "header.payload.signature"])

        let attempts = await log.attempts
        try #require(attempts.count == 1)
        #expect(attempts[0].notificationUUID == "n-1")
        #expect(attempts[0].attemptNumber == 1)
        #expect(attempts[0].sendAttemptResult == .success)
        #expect(attempts[0].statusCode == 200)
        #expect(attempts[0].nextAttemptDate == nil)
        #expect(await dispatcher.pendingNotificationUUIDs.isEmpty)
        await dispatcher.shutdown()
    }

    @Test("a dispatcher for Pub/Sub pushes posts the body as given and counts its 2xx as delivered")
    func anotherBodyAndOtherAcknowledgingStatuses() async throws {
        let transport = FakeTransport { index in .response(statusCode: [202, 500, 204][index]) }
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, timeScale: 0.00001, schedule: .pubSubPush,
            acknowledgingStatusCodes: [102, 200, 201, 202, 204], onAttempt: log.record)
        let body = Data(#"{"message":{},"subscription":"s"}"#.utf8)
        #expect(await dispatcher.submit(uuid: "m-1", body: body) == .scheduled)
        await dispatcher.waitUntilIdle()
        #expect(await dispatcher.submit(uuid: "m-2", body: body) == .scheduled)
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.map(\.body) == [body, body, body])
        let attempts = await log.attempts
        #expect(attempts.map(\.notificationUUID) == ["m-1", "m-2", "m-2"])
        #expect(attempts.map(\.sendAttemptResult) == [.success, .unsuccessfulHTTPResponseCode, .success])
        #expect(attempts.map(\.statusCode) == [202, 500, 204])
        await dispatcher.shutdown()
    }

    @Test("Pub/Sub's schedule: 10 s doubling to 600 s, within the 7 days a message is kept")
    func thePubSubSchedule() {
        let intervals = NotificationRetrySchedule.pubSubPush.retryIntervals
        #expect(Array(intervals.prefix(8)) == [10, 20, 40, 80, 160, 320, 600, 600].map { Duration.seconds($0) })
        let total = intervals.reduce(Duration.zero, +)
        #expect(total <= .seconds(7 * 86_400))
        #expect(total > .seconds(7 * 86_400 - 600))
    }

    @Test("no attempt is made before beforeSending returns (the emulator's journal on disk)")
    func theFirstAttemptWaitsForBeforeSending() async throws {
        let transport = FakeTransport()
        let gate = Gate()
        let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport,
            beforeSending: {
                enteredContinuation.yield()
                await gate.wait()
            })

        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "header.payload.signature") == .scheduled)
        var iterator = entered.makeAsyncIterator()
        _ = await iterator.next()
        #expect(await transport.posts.isEmpty, "posted while beforeSending had not returned")
        await gate.open()
        await dispatcher.waitUntilIdle()
        #expect(await transport.posts.count == 1)
        await dispatcher.shutdown()
    }

    @Test("when beforeSending throws, the delivery ends without an attempt")
    func aFailingBeforeSendingEndsTheDelivery() async throws {
        let transport = FakeTransport()
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, onAttempt: log.record,
            beforeSending: { throw CocoaError(.fileWriteUnknown) })

        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "header.payload.signature") == .scheduled)
        await dispatcher.waitUntilIdle()
        #expect(await transport.posts.isEmpty)
        #expect(await log.attempts.isEmpty)
        #expect(await dispatcher.pendingNotificationUUIDs.isEmpty)
        await dispatcher.shutdown()
    }

    @Test func failuresAreRetriedOnTheScaledScheduleUntilHTTP200() async throws {
        let timeScale = 0.00001
        let failures: [NotificationDeliveryResult] = [
            .response(statusCode: 500), .failure(.socketIssue), .failure(.timedOut),
        ]
        let transport = FakeTransport { index in
            index < failures.count ? failures[index] : .response(statusCode: 200)
        }
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, timeScale: timeScale, onAttempt: log.record
        )

        await dispatcher.submit(uuid: "n-retry", signedPayload: "jws")
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.count == failures.count + 1)
        let attempts = await log.attempts
        #expect(attempts.map(\.attemptNumber) == [1, 2, 3, 4])
        #expect(
            attempts.map(\.sendAttemptResult) == [.unsuccessfulHTTPResponseCode, .socketIssue, .timedOut, .success]
        )
        #expect(attempts.map(\.statusCode) == [500, nil, nil, 200])
        #expect(attempts.last?.nextAttemptDate == nil)
        let expectedGaps = [1, 12, 24].map { $0 * Self.hour * timeScale }
        for (index, expected) in expectedGaps.enumerated() {
            let gap = attempts[index + 1].attemptDate.timeIntervalSince(attempts[index].attemptDate)
            #expect(gap >= expected - 0.002, "gap \(index + 1) is \(gap) s, scheduled \(expected) s")
            // Late starts happen on a loaded machine; an unscaled schedule would be hours late.
            #expect(gap < expected + 30, "gap \(index + 1) is \(gap) s, scheduled \(expected) s")
            #expect(attempts[index].nextAttemptDate == attempts[index].attemptDate.addingTimeInterval(expected))
        }
        await dispatcher.shutdown()
    }

    @Test func anAlwaysFailingServerGetsExactlySixAttemptsOnApplesSchedule() async throws {
        // A virtual clock at real scale: the waits are Apple's exact intervals.
        let clock = VirtualClock()
        let transport = FakeTransport { _ in .response(statusCode: 503) }
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, timeScale: 1, clock: clock, onAttempt: log.record
        )

        await dispatcher.submit(uuid: "n-dead", signedPayload: "jws")
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.count == 6)
        let attempts = await log.attempts
        #expect(attempts.map(\.attemptNumber) == Array(1...6))
        #expect(attempts.allSatisfy { $0.sendAttemptResult == .unsuccessfulHTTPResponseCode })
        #expect(attempts.map(\.willRetry) == [true, true, true, true, true, false])
        let hours = [1.0, 12, 24, 48, 72]
        let waits = clock.sleeps.map(seconds)
        try #require(waits.count == hours.count)
        for (wait, hoursExpected) in zip(waits, hours) {
            #expect(abs(wait - hoursExpected * Self.hour) < 0.001)
        }
        for index in 1..<attempts.count {
            let gap = attempts[index].attemptDate.timeIntervalSince(attempts[index - 1].attemptDate)
            #expect(abs(gap - hours[index - 1] * Self.hour) < 0.001)
        }
        #expect(NotificationRetrySchedule.apple.maximumAttempts == 6)
        await dispatcher.shutdown()
    }

    @Test func anAlwaysFailingServerStopsAfterSixAttemptsInRealTime() async throws {
        let transport = FakeTransport { _ in .failure(.noResponse) }
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, timeScale: 0.000001, onAttempt: log.record
        )

        await dispatcher.submit(uuid: "n-dead", signedPayload: "jws")
        await dispatcher.waitUntilIdle()
        try await Task.sleep(for: .milliseconds(50))

        #expect(await transport.posts.count == 6)
        let dates = await log.attempts.map(\.attemptDate)
        #expect(dates == dates.sorted())
        #expect(await log.attempts.map(\.sendAttemptResult) == Array(repeating: .noResponse, count: 6))
        await dispatcher.shutdown()
    }

    @Test func withoutURLNothingIsSent() async throws {
        let transport = FakeTransport()
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(url: nil, transport: transport, onAttempt: log.record)

        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "jws") == .noURL)
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.isEmpty)
        #expect(await log.attempts.isEmpty)
        await dispatcher.shutdown()
    }

    @Test func removingTheURLEndsPendingRetries() async throws {
        let clock = VirtualClock()
        let transport = FakeTransport { _ in .response(statusCode: 500) }
        let dispatcher = NotificationDispatcher(url: url, transport: transport, clock: clock) { _ in }
        clock.beforeSleep = { await dispatcher.setURL(nil) }

        await dispatcher.submit(uuid: "n-1", signedPayload: "jws")
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.count == 1)
        await dispatcher.shutdown()
    }

    @Test func aNewURLReceivesTheNextRetries() async throws {
        let other = URL(string: "http://127.0.0.1:10/other")!
        let clock = VirtualClock()
        let transport = FakeTransport { index in index == 0 ? .response(statusCode: 500) : .response(statusCode: 200) }
        let dispatcher = NotificationDispatcher(url: url, transport: transport, clock: clock) { _ in }
        clock.beforeSleep = { await dispatcher.setURL(other) }

        await dispatcher.submit(uuid: "n-1", signedPayload: "jws")
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.map(\.url) == [url, other])
        #expect(await dispatcher.url == other)
        await dispatcher.shutdown()
    }

    @Test func aPendingNotificationIsNotSubmittedTwice() async throws {
        let clock = VirtualClock()
        let gate = Gate()
        let transport = FakeTransport(gate: gate)
        let dispatcher = NotificationDispatcher(url: url, transport: transport, clock: clock) { _ in }

        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "jws") == .scheduled)
        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "jws") == .alreadyPending)
        #expect(await dispatcher.pendingNotificationUUIDs == ["n-1"])
        await gate.open()
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.count == 1)
        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "jws") == .scheduled)
        await dispatcher.waitUntilIdle()
        #expect(await transport.posts.count == 2)
        await dispatcher.shutdown()
    }

    // MARK: Resumption

    @Test func resumingAfterFiveAttemptsMakesOnlyTheLastOne() async throws {
        let transport = FakeTransport { _ in .response(statusCode: 500) }
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, timeScale: 0.00001, onAttempt: log.record
        )

        let lastAttempt = Date().addingTimeInterval(-10 * 24 * Self.hour)
        let submission = await dispatcher.submit(
            uuid: "n-resumed", signedPayload: "jws", attemptsMade: 5, lastAttempt: lastAttempt
        )
        #expect(submission == .scheduled)
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.count == 1)
        let attempts = await log.attempts
        #expect(attempts.map(\.attemptNumber) == [6])
        #expect(attempts.first?.nextAttemptDate == nil)
        await dispatcher.shutdown()
    }

    @Test func resumingWaitsForTheRemainderOfTheInterval() async throws {
        let clock = VirtualClock()
        let transport = FakeTransport()
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(url: url, transport: transport, clock: clock, onAttempt: log.record)

        // Two attempts made, the last one an hour ago: the third is due 12 h after it.
        let lastAttempt = clock.now.addingTimeInterval(-Self.hour)
        await dispatcher.submit(uuid: "n-1", signedPayload: "jws", attemptsMade: 2, lastAttempt: lastAttempt)
        await dispatcher.waitUntilIdle()

        let waits = clock.sleeps.map(seconds)
        try #require(waits.count == 1)
        #expect(abs(waits[0] - 11 * Self.hour) < 0.001)
        #expect(await log.attempts.map(\.attemptNumber) == [3])
        await dispatcher.shutdown()
    }

    @Test func resumingAnOverdueNotificationSendsAtOnce() async throws {
        let clock = VirtualClock()
        let transport = FakeTransport()
        let dispatcher = NotificationDispatcher(url: url, transport: transport, clock: clock) { _ in }

        let lastAttempt = clock.now.addingTimeInterval(-100 * Self.hour)
        await dispatcher.submit(uuid: "n-1", signedPayload: "jws", attemptsMade: 3, lastAttempt: lastAttempt)
        await dispatcher.submit(uuid: "n-2", signedPayload: "jws", attemptsMade: 1, lastAttempt: nil)
        await dispatcher.waitUntilIdle()

        #expect(clock.sleeps.isEmpty)
        #expect(await transport.posts.count == 2)
        await dispatcher.shutdown()
    }

    @Test func aNotificationWithEveryAttemptMadeIsNotResumed() async throws {
        let transport = FakeTransport()
        let dispatcher = NotificationDispatcher(url: url, transport: transport) { _ in }

        let submission = await dispatcher.submit(
            uuid: "n-1", signedPayload: "jws", attemptsMade: 6, lastAttempt: Date())
        #expect(submission == .exhausted)
        await dispatcher.waitUntilIdle()
        #expect(await transport.posts.isEmpty)
        await dispatcher.shutdown()
    }

    // MARK: Shutdown

    @Test func shutdownCancelsPendingRetries() async throws {
        let transport = FakeTransport { _ in .response(statusCode: 500) }
        let log = AttemptLog()
        // Real time: the first retry would wait an hour.
        let dispatcher = NotificationDispatcher(url: url, transport: transport, onAttempt: log.record)

        await dispatcher.submit(uuid: "n-1", signedPayload: "jws")
        while await log.attempts.isEmpty {
            try await Task.sleep(for: .milliseconds(5))
        }
        let started = ContinuousClock.now
        await dispatcher.shutdown()

        // The retry would wait an hour; a generous bound keeps a loaded test run (the whole
        // suite in parallel on 2 cores once took 5.008 s here) from failing it.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(await dispatcher.pendingNotificationUUIDs.isEmpty)
        #expect(await dispatcher.submit(uuid: "n-2", signedPayload: "jws") == .shutDown)
        await dispatcher.waitUntilIdle()
        #expect(await transport.posts.count == 1)
        #expect(await log.attempts.count == 1)
    }

    // MARK: Faults

    @Test func dropRateOneSendsNothing() async throws {
        let transport = FakeTransport()
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, faults: NotificationFaults(dropRate: 1), onAttempt: log.record
        )

        for index in 0..<20 {
            #expect(await dispatcher.submit(uuid: "n-\(index)", signedPayload: "jws") == .dropped)
        }
        await dispatcher.waitUntilIdle()

        #expect(await transport.posts.isEmpty)
        #expect(await log.attempts.isEmpty)
        await dispatcher.shutdown()
    }

    @Test func duplicateRateOnePostsEveryAttemptTwice() async throws {
        // The first attempt (two posts) fails, the second succeeds.
        let transport = FakeTransport { index in index < 2 ? .response(statusCode: 500) : .response(statusCode: 200) }
        let log = AttemptLog()
        let dispatcher = NotificationDispatcher(
            url: url, transport: transport, timeScale: 0.00001, faults: NotificationFaults(duplicateRate: 1),
            onAttempt: log.record
        )

        await dispatcher.submit(uuid: "n-dup", signedPayload: "jws")
        await dispatcher.waitUntilIdle()

        let posts = await transport.posts
        #expect(posts.count == 4)
        #expect(Set(posts.map(\.body)).count == 1)
        #expect(await log.attempts.map(\.sendAttemptResult) == [.unsuccessfulHTTPResponseCode, .success])
        await dispatcher.shutdown()
    }

    @Test func updatedFaultsApplyToLaterAttempts() async throws {
        let clock = VirtualClock()
        let transport = FakeTransport { index in index == 0 ? .response(statusCode: 500) : .response(statusCode: 200) }
        let dispatcher = NotificationDispatcher(url: url, transport: transport, clock: clock) { _ in }
        clock.beforeSleep = { await dispatcher.updateFaults(NotificationFaults(duplicateRate: 1)) }

        await dispatcher.submit(uuid: "n-1", signedPayload: "jws")
        await dispatcher.waitUntilIdle()

        // One post for the first attempt; two for the retry, made after the update.
        #expect(await transport.posts.count == 3)
        #expect(await dispatcher.faults.duplicateRate == 1)
        await dispatcher.shutdown()
    }

    @Test func faultDecisionsAreDeterministicForASeed() {
        let faults = NotificationFaults(
            dropRate: 0.5, duplicateRate: 0.5, reorderRate: 0.5, maxReorderDelay: .seconds(1), seed: 42
        )
        let same = NotificationFaults(
            dropRate: 0.5, duplicateRate: 0.5, reorderRate: 0.5, maxReorderDelay: .seconds(1), seed: 42
        )
        let other = NotificationFaults(
            dropRate: 0.5, duplicateRate: 0.5, reorderRate: 0.5, maxReorderDelay: .seconds(1), seed: 43
        )
        let uuids = (0..<400).map { "notification-\($0)" }

        let drops = uuids.map { faults.drops(uuid: $0) }
        #expect(drops == uuids.map { same.drops(uuid: $0) })
        #expect(drops != uuids.map { other.drops(uuid: $0) })
        let dropped = drops.filter { $0 }.count
        #expect((140...260).contains(dropped), "dropped \(dropped) of 400 at rate 0.5")

        let plans = uuids.map { faults.attemptFaults(uuid: $0, attemptNumber: 1) }
        #expect(plans == uuids.map { same.attemptFaults(uuid: $0, attemptNumber: 1) })
        #expect(plans != uuids.map { faults.attemptFaults(uuid: $0, attemptNumber: 2) })
        #expect(plans.allSatisfy { $0.extraDelay >= .zero && $0.extraDelay <= .seconds(1) })
        let duplicated = plans.filter(\.duplicate).count
        let delayed = plans.filter { $0.extraDelay > .zero }.count
        #expect((140...260).contains(duplicated))
        #expect((140...260).contains(delayed))

        #expect(NotificationFaults(dropRate: 2, duplicateRate: -1, reorderRate: .nan).dropRate == 1)
        #expect(NotificationFaults(dropRate: 2, duplicateRate: -1, reorderRate: .nan).duplicateRate == 0)
        #expect(NotificationFaults(dropRate: 2, duplicateRate: -1, reorderRate: .nan).reorderRate == 0)
        #expect(!NotificationFaults.none.drops(uuid: "x"))
        #expect(NotificationFaults.none.attemptFaults(uuid: "x", attemptNumber: 1) == NotificationAttemptFaults())
    }

    @Test func faultsDecodeFromTheEmulatorsJSON() throws {
        let json = #"""
            {"dropRate": 0.1, "duplicateRate": 0.05, "reorderRate": 0.2, "maxReorderDelayMs": 2000,
             "delayRate": 0.3, "delayMs": 5000}
            """#
        let faults = try JSONDecoder().decode(NotificationFaults.self, from: Data(json.utf8))
        #expect(
            faults
                == NotificationFaults(
                    dropRate: 0.1, duplicateRate: 0.05, reorderRate: 0.2, maxReorderDelay: .seconds(2),
                    delayRate: 0.3, delay: .seconds(5))
        )
        #expect(try JSONDecoder().decode(NotificationFaults.self, from: JSONEncoder().encode(faults)) == faults)
        #expect(try JSONDecoder().decode(NotificationFaults.self, from: Data("{}".utf8)) == .none)
        let seeded = try JSONDecoder().decode(NotificationFaults.self, from: Data(#"{"seed": 9}"#.utf8))
        #expect(seeded.seed == 9)
        let notificationsOnly = try JSONDecoder().decode(
            EmulatorFaults.self, from: Data(#"{"notifications": {"dropRate": 1}}"#.utf8))
        #expect(notificationsOnly.notifications?.dropRate == 1)
        #expect(notificationsOnly.endpoints.isEmpty)
    }

    @Test func delayedAttemptsWaitTheWholeDelayAtTheirRate() {
        let faults = NotificationFaults(delayRate: 0.25, delay: .seconds(5), seed: 11)
        let plans = (0..<400).map { faults.attemptFaults(uuid: "delayed-\($0)", attemptNumber: 1) }
        let delayed = plans.filter(\.delayed)
        #expect((60...140).contains(delayed.count), "delayed \(delayed.count) of 400 at rate 0.25")
        #expect(delayed.allSatisfy { $0.extraDelay == .seconds(5) })
        #expect(plans.filter { !$0.delayed }.allSatisfy { $0.extraDelay == .zero })
        let both = NotificationFaults(reorderRate: 1, maxReorderDelay: .seconds(1), delayRate: 1, delay: .seconds(5))
        let plan = both.attemptFaults(uuid: "x", attemptNumber: 1)
        #expect(plan.delayed && plan.extraDelay >= .seconds(5) && plan.extraDelay <= .seconds(6))
    }

    @Test func reorderedNotificationsWaitTheirSeededDelays() async throws {
        let faults = NotificationFaults(reorderRate: 1, maxReorderDelay: .milliseconds(2000), seed: 4)
        let uuids = (0..<4).map { "reordered-\($0)" }
        let delays = uuids.map { faults.attemptFaults(uuid: $0, attemptNumber: 1).extraDelay }
        let expectedOrder = uuids.indices.sorted { delays[$0] < delays[$1] }.map { uuids[$0] }
        // Seed 4 delays the first notification most: submission order is not arrival order.
        try #require(expectedOrder.last == uuids.first)

        let transport = FakeTransport()
        let dispatcher = NotificationDispatcher(url: url, transport: transport, faults: faults) { _ in }
        var submitted: [String: ContinuousClock.Instant] = [:]
        for uuid in uuids {
            submitted[uuid] = .now
            await dispatcher.submit(uuid: uuid, signedPayload: "payload-\(uuid)")
        }
        await dispatcher.waitUntilIdle()

        // Each notification waits at least its seeded delay (a loaded machine may post it
        // later, so several can arrive together: their order is not asserted), and all arrive.
        let posts = await transport.posts
        var arrived: [String] = []
        for post in posts {
            let payload = try JSONDecoder().decode(ResponseBodyV2.self, from: post.body).signedPayload ?? ""
            let uuid = String(payload.dropFirst("payload-".count))
            let index = try #require(uuids.firstIndex(of: uuid))
            #expect(post.instant - submitted[uuid]! >= delays[index] - .milliseconds(2), "\(uuid) posted early")
            arrived.append(uuid)
        }
        #expect(arrived.sorted() == uuids.sorted())
        await dispatcher.shutdown()
    }

    // MARK: HTTP transport

    @Test func httpTransportReportsStatusCodesFromALiveServer() async throws {
        let received = BodyLog()
        let router = Router()
        router.post("ok") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            await received.record(
                contentType: request.headers[.contentType], body: Data(body.readableBytesView)
            )
            return .ok
        }
        router.post("fail") { _, _ -> HTTPResponse.Status in .internalServerError }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))

        let port = try await app.test(.live) { client -> Int in
            let port = try #require(client.port)
            let transport = HTTPNotificationTransport(timeout: .seconds(30))
            let body = NotificationDispatcher.body(signedPayload: "a.b.c")

            let ok = await transport.post(body, to: URL(string: "http://127.0.0.1:\(port)/ok")!)
            #expect(ok == .response(statusCode: 200))
            #expect(ok.sendAttemptResult == .success)
            let fail = await transport.post(body, to: URL(string: "http://127.0.0.1:\(port)/fail")!)
            #expect(fail == .response(statusCode: 500))
            #expect(fail.sendAttemptResult == .unsuccessfulHTTPResponseCode)
            let missing = await transport.post(body, to: URL(string: "http://127.0.0.1:\(port)/missing")!)
            #expect(missing == .response(statusCode: 404))
            return port
        }

        let requests = await received.requests
        #expect(requests.count == 1)
        #expect(requests.first?.contentType == "application/json")
        #expect(requests.first?.body == NotificationDispatcher.body(signedPayload: "a.b.c"))

        // The server has stopped: its port now refuses connections.
        let client = HTTPClient(configuration: HTTPNotificationTransport.recommendedConfiguration)
        let transport = HTTPNotificationTransport(client: client, timeout: .seconds(5))
        let refused = await transport.post(Data("{}".utf8), to: URL(string: "http://127.0.0.1:\(port)/ok")!)
        try await client.shutdown()
        #expect(refused == .failure(.socketIssue))
        #expect(!refused.isSuccess)
    }

    @Test func dispatcherDeliversToALiveServerAfterAFailure() async throws {
        let received = BodyLog()
        let router = Router()
        router.post("notifications") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            let count = await received.record(
                contentType: request.headers[.contentType], body: Data(body.readableBytesView))
            return count == 1 ? .serviceUnavailable : .ok
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))

        try await app.test(.live) { client in
            let port = try #require(client.port)
            let log = AttemptLog()
            // The default timeout at this time scale (5 s) is not always enough while the
            // whole suite saturates two cores: an attempt then times out.
            let dispatcher = NotificationDispatcher(
                url: URL(string: "http://127.0.0.1:\(port)/notifications")!,
                transport: HTTPNotificationTransport(timeout: .seconds(30)), timeScale: 0.00001, onAttempt: log.record
            )
            await dispatcher.submit(uuid: "n-live", signedPayload: "x.y.z")
            await dispatcher.waitUntilIdle()
            await dispatcher.shutdown()

            #expect(await log.attempts.map(\.sendAttemptResult) == [.unsuccessfulHTTPResponseCode, .success])
            #expect(await log.attempts.map(\.statusCode) == [503, 200])
        }
        #expect(await received.requests.count == 2)
    }

    @Test func transportErrorsMapToApplesSendAttemptResults() {
        #expect(HTTPNotificationTransport.sendAttemptResult(for: HTTPClientError.deadlineExceeded) == .timedOut)
        #expect(HTTPNotificationTransport.sendAttemptResult(for: HTTPClientError.connectTimeout) == .timedOut)
        #expect(HTTPNotificationTransport.sendAttemptResult(for: HTTPClientError.remoteConnectionClosed) == .noResponse)
        #expect(
            HTTPNotificationTransport.sendAttemptResult(for: HTTPClientError.redirectCycleDetected) == .circularRedirect
        )
        #expect(HTTPNotificationTransport.sendAttemptResult(for: CancellationError()) == .other)
        #expect(HTTPNotificationTransport.timeout(forTimeScale: 1) == .seconds(10))
        #expect(HTTPNotificationTransport.timeout(forTimeScale: 0.5) == .seconds(15))
        #expect(HTTPNotificationTransport.timeout(forTimeScale: 0.0001) == .seconds(15))
    }
}

// MARK: - Test doubles

/// Records every post and answers from a script indexed by post number (from 0).
private actor FakeTransport: NotificationTransport {
    struct Post: Sendable {
        let body: Data
        let url: URL
        let instant: ContinuousClock.Instant
    }

    private(set) var posts: [Post] = []
    private let respond: @Sendable (Int) -> NotificationDeliveryResult
    private let gate: Gate?

    init(
        gate: Gate? = nil,
        respond: @escaping @Sendable (Int) -> NotificationDeliveryResult = { _ in .response(statusCode: 200) }
    ) {
        self.gate = gate
        self.respond = respond
    }

    func post(_ body: Data, to url: URL) async -> NotificationDeliveryResult {
        let index = posts.count
        posts.append(Post(body: body, url: url, instant: .now))
        await gate?.wait()
        return respond(index)
    }
}

/// Holds posts back until opened.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters {
            waiter.resume()
        }
        waiters = []
    }
}

private actor AttemptLog {
    private(set) var attempts: [NotificationSendAttempt] = []

    nonisolated var record: NotificationDispatcher.AttemptHandler {
        { attempt in await self.append(attempt) }
    }

    private func append(_ attempt: NotificationSendAttempt) {
        attempts.append(attempt)
    }
}

private actor BodyLog {
    struct Request: Sendable {
        let contentType: String?
        let body: Data
    }

    private(set) var requests: [Request] = []

    @discardableResult
    func record(contentType: String?, body: Data) -> Int {
        requests.append(Request(contentType: contentType, body: body))
        return requests.count
    }
}

/// Virtual time: sleeping advances `now` at once and records the duration.
private final class VirtualClock: NotificationClock, @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while holding `lock`.
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)
    private var recorded: [Duration] = []
    private var hook: (@Sendable () async -> Void)?

    var now: Date { lock.withLock { current } }
    var sleeps: [Duration] { lock.withLock { recorded } }

    /// Runs before every sleep.
    var beforeSleep: (@Sendable () async -> Void)? {
        get { lock.withLock { hook } }
        set { lock.withLock { hook = newValue } }
    }

    func sleep(for duration: Duration) async throws {
        await beforeSleep?()
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(duration)
            current = current.addingTimeInterval(seconds(duration))
        }
        await Task.yield()
    }
}

private func seconds(_ duration: Duration) -> TimeInterval {
    let (whole, attoseconds) = duration.components
    return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
}
