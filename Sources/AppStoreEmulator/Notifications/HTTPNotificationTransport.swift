import AppStoreModel
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Posts notifications over HTTP(S) with AsyncHTTPClient.
///
/// The client is borrowed, never shut down here. `HTTPClient.shared` works, but it follows
/// redirects and, on a refused connection, keeps reconnecting until the request's deadline;
/// a client made with ``recommendedConfiguration`` reports those at once, as the App Store
/// does (its owner shuts it down).
public struct HTTPNotificationTransport: NotificationTransport {
    /// The client requests go through.
    public let client: HTTPClient
    /// How long one request may take, connection included, before it counts as
    /// ``SendAttemptResult/timedOut``.
    public let timeout: Duration
    /// The extra headers of a request to a URL, made afresh for every request (a Pub/Sub
    /// push's `Authorization` carries a token signed for its URL); none by default.
    public let headers: @Sendable (URL) -> [String: String]

    /// Creates a transport on `client` with a per-request `timeout` and each request's
    /// extra `headers`.
    public init(
        client: HTTPClient = .shared, timeout: Duration = .seconds(10),
        headers: @escaping @Sendable (URL) -> [String: String] = { _ in [:] }
    ) {
        self.client = client
        self.timeout = timeout
        self.headers = headers
    }

    /// The request timeout for a dispatcher running at `timeScale`: Apple's 10 seconds at the
    /// real pace; compressed, 15 seconds. A compressed schedule runs every retry within
    /// seconds, so an attempt that timed out while a local server on a busy machine was still
    /// answering (the whole test suite on two cores took over 5 s for one) soon used up all of
    /// them, and the notification was lost for want of patience, not of a server.
    public static func timeout(forTimeScale timeScale: Double) -> Duration {
        guard timeScale.isFinite, timeScale < 1 else { return .seconds(10) }
        return .seconds(15)
    }

    /// A client configuration that behaves like the App Store's sender: no redirects
    /// followed, and a refused or failed connection reported at once instead of retried.
    public static var recommendedConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// The configuration of a client posting to a server that closes idle connections:
    /// `HTTPClient.shared`'s (it keeps trying to connect until an attempt's deadline, so a
    /// notification sent while the server restarts waits for it), except that an idle
    /// connection is kept only `idleTimeout` (`shared` keeps one 600 s). Kept below the
    /// server's own idle timeout, the client closes an idle connection first, and a
    /// notification never goes out on a connection the server is closing (it would fail
    /// unanswered and wait for Apple's next retry, an hour at the real pace).
    public static func configuration(keepingIdleConnectionsFor idleTimeout: TimeAmount) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.idleTimeout = idleTimeout
        return configuration
    }

    /// POSTs `body` as `application/json` to `url` with ``headers``; the response body is
    /// read and discarded.
    public func post(_ body: Data, to url: URL) async -> NotificationDeliveryResult {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers(url) { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: timeAmount(timeout))
            // Drain the body so the connection can be reused; the status code is the answer.
            do {
                for try await _ in response.body {}
            } catch {}
            return .response(statusCode: Int(response.status.code))
        } catch {
            return .failure(Self.sendAttemptResult(for: error))
        }
    }

    /// Apple's `sendAttemptResult` for an error thrown while sending a request.
    static func sendAttemptResult(for error: any Error) -> SendAttemptResult {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout,
                .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed:
                return .noResponse
            case .redirectCycleDetected, .redirectLimitReached:
                return .circularRedirect
            default:
                return .other
            }
        case let error as NIOConnectionError:
            let timedOut = error.connectionErrors.contains { failure in
                if case .connectTimeout? = failure.error as? ChannelError { return true }
                return false
            }
            return timedOut ? .timedOut : .socketIssue
        case let error as ChannelError:
            switch error {
            case .connectTimeout:
                return .timedOut
            case .eof, .outputClosed, .inputClosed, .ioOnClosedChannel, .alreadyClosed:
                return .noResponse
            default:
                return .socketIssue
            }
        case is IOError:
            return .socketIssue
        case is NIOSSLError, is BoringSSLError:
            return .tlsIssue
        default:
            return .other
        }
    }
}

private func timeAmount(_ duration: Duration) -> TimeAmount {
    let (seconds, attoseconds) = duration.components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
}
