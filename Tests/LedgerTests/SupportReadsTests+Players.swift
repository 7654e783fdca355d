import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension SupportReadsTests {
    @Test(
        "players resembling a near-miss: equal but for case, then prefix, then substring, shorter first",
        arguments: StoreKind.allCases)
    func playersResembling(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for player in ["bob_1024", "Bob", "bobby", "xbob", "alice", "BOB_7", "Émile", "émile2", "张三"] {
                _ = try await store.createOrder(Fixture.order(player: player))
            }
            _ = try await store.deliver(Fixture.delivery(player: "jimbob"))
            try await store.setCheckpoint("unrelated", value: "bob")

            #expect(
                try await store.players(resembling: "bob", limit: 10) == [
                    "Bob", "BOB_7", "bobby", "bob_1024", "xbob", "jimbob",
                ])
            #expect(try await store.players(resembling: "BOB", limit: 2) == ["Bob", "BOB_7"])
            #expect(try await store.players(resembling: "b_1", limit: 10) == ["bob_1024"])
            // Only ASCII letters fold, on both databases: É and é stay two letters.
            #expect(try await store.players(resembling: "émile", limit: 10) == ["émile2"])
            #expect(try await store.players(resembling: "张", limit: 10) == ["张三"])
            #expect(try await store.players(resembling: "zhangsan", limit: 10) == [])
            // Pattern characters are plain text: nothing matches everything.
            #expect(try await store.players(resembling: "%", limit: 10) == [])
            #expect(try await store.players(resembling: "_", limit: 10) == ["BOB_7", "bob_1024"])
            #expect(try await store.players(resembling: "", limit: 10) == [])
            #expect(try await store.players(resembling: "bob", limit: 0) == [])
        }
    }

    @Test("players whose id has a character outside ASCII, in byte order", arguments: StoreKind.allCases)
    func playersOutsideASCII(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for player in ["bob", "张三", "Émile", "émile2", "alice_1", "李四"] {
                _ = try await store.createOrder(Fixture.order(player: player))
            }
            _ = try await store.deliver(Fixture.delivery(player: "王五"))
            #expect(try await store.players(outsideASCIILimit: 10) == ["Émile", "émile2", "张三", "李四", "王五"])
            #expect(try await store.players(outsideASCIILimit: 2) == ["Émile", "émile2"])
            #expect(try await store.players(outsideASCIILimit: 0) == [])
        }
    }
}
