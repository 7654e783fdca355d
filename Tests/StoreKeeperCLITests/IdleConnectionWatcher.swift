import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP/1.1 endpoint that answers every request 200 and never closes a
/// connection itself, and tells when a client closes one: what a notification sender does
/// with a connection it no longer uses.
final class IdleConnectionWatcher: Sendable {
    /// What happened on the endpoint's connections, in order.
    enum Event: Sendable, Equatable {
        /// A request was answered.
        case answered
        /// The client closed a connection.
        case closed
    }

    /// The events as they happen.
    let events: AsyncStream<Event>
    let port: Int
    private let channel: any Channel

    /// Starts the endpoint on a free loopback port.
    init() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        self.events = events
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Answerer(events: continuation))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// The URL requests go to.
    var url: String { "http://127.0.0.1:\(port)/notifications" }

    /// Stops listening (connections still open stay until their client closes them).
    func stop() async {
        try? await channel.close()
    }

    /// Answers each request 200 with an empty body, keeping the connection, and reports it
    /// and the connection's end.
    private final class Answerer: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let events: AsyncStream<Event>.Continuation

        init(events: AsyncStream<Event>.Continuation) {
            self.events = events
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            let head = HTTPResponseHead(
                version: .http1_1, status: .ok, headers: ["Content-Length": "0", "Connection": "keep-alive"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            events.yield(.answered)
        }

        func channelInactive(context: ChannelHandlerContext) {
            events.yield(.closed)
            context.fireChannelInactive()
        }
    }
}
