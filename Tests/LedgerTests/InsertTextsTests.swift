import Testing

@testable import Ledger

/// INSERT texts are built once per shape and never shared between shapes.
struct InsertTextsTests {
    @Test("an insert lists its columns and placeholders in the order given, then the clause")
    func textFollowsTheShape() {
        let statement = SpendTable.insert(
            [.playerId: .text("p"), .items: .text("{}")], "ON CONFLICT DO NOTHING RETURNING id = ?", [.integer(7)])
        #expect(
            statement.sql
                == "INSERT INTO spends (player_id, items) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id = ?")
        #expect(statement.arguments == [.text("p"), .text("{}"), .integer(7)])
    }

    @Test("the same shape again gets the same text; another order, columns or clause gets its own")
    func shapesKeepTheirOwnTexts() {
        let first = SpendTable.insert([.playerId: .text("a"), .reason: .text("r")]).sql
        #expect(SpendTable.insert([.playerId: .text("b"), .reason: .text("s")]).sql == first)
        #expect(
            SpendTable.insert([.reason: .text("r"), .playerId: .text("a")]).sql
                == "INSERT INTO spends (reason, player_id) VALUES (?, ?) ")
        #expect(
            SpendTable.insert([.playerId: .text("a"), .reason: .text("r"), .actor: .text("x")]).sql
                == "INSERT INTO spends (player_id, reason, actor) VALUES (?, ?, ?) ")
        #expect(
            SpendTable.insert([.playerId: .text("a"), .reason: .text("r")], "RETURNING id").sql
                == "INSERT INTO spends (player_id, reason) VALUES (?, ?) RETURNING id")
        #expect(SpendTable.insert([.playerId: .text("c"), .reason: .text("t")]).sql == first)
    }
}
