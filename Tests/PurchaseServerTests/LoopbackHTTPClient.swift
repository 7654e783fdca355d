import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// The client the tests send their requests to their own servers through:
    /// `HTTPClient.shared`'s configuration (its patience for a connection from the pool under
    /// a whole suite's load included), except that it closes a pooled connection after 2 s
    /// without a request, before any test server closes it (the server's idle timeout is 30 s
    /// by default, 5 s at the least in these tests). `HTTPClient.shared` keeps an idle
    /// connection for 600 s, so a request could go out on a connection at the moment the
    /// server closed it and fail with `remoteConnectionClosed` (it did once in CI, in
    /// FinishAtAppleTests, with both cores saturated). It lives as long as the test process,
    /// as `shared` does.
    static let loopback: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool = .init(idleTimeout: .seconds(2))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
