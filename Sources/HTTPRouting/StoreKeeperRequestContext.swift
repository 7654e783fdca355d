import Hummingbird
import NIOCore

/// The request context `storekeeper serve` and the dev stack run with: Hummingbird's basic
/// context plus the client's address (the TCP peer of the connection), which the support
/// console writes into its audit log and counts sign-in failures by.
///
/// The address is the connection's peer only: headers such as `X-Forwarded-For` are never
/// trusted, since any client can send them.
public struct StoreKeeperRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected client's address, when the channel knows it.
    public let remoteAddress: SocketAddress?

    /// Creates the context of a request that arrived on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
