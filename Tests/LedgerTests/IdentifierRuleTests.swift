import Foundation
import Ledger
import LedgerTestSupport
import Testing

@Suite("The identifier rule")
struct IdentifierRuleTests {
    private func problem(_ text: String, maximum: Int = 64) -> IdentifierProblem? {
        IdentifierRule.problem(with: text, maximumLength: maximum)
    }

    @Test("ids of every script in their one standard form are identifiers")
    func accepted() {
        for id in [
            "bob", "Bob", "bob_1024", "player-7.eu@game", "jos\u{E9}", "\u{C5}sa", "张三",
            "玩家１"
                .precomposedStringWithCompatibilityMapping, "Ελένη", "😀", "2000000123456789", "a/b+c=d",
        ] {
            #expect(problem(id) == nil, "\(id.unicodeScalars.map { $0.value })")
        }
    }

    @Test("canonical and compatibility variants are refused, never rewritten")
    func variants() {
        for id in ["jose\u{301}", "\u{212B}sa", "A\u{30A}sa", "ｂｏｂ", "玩家１", "ﬁsh", "x²", "Ⅻ", "ｶ"] {
            #expect(problem(id) == .notNormalized, "\(id.unicodeScalars.map { $0.value })")
        }
    }

    @Test("controls, invisible characters and white space are refused, naming the code point")
    func characters() {
        let cases: [(String, UInt32, ForbiddenCharacter)] = [
            ("1\n2", 0x0A, .control), ("a\u{7F}", 0x7F, .control), ("a\u{85}", 0x85, .control),
            ("b\u{200B}ob", 0x200B, .invisible), ("bob\u{202E}", 0x202E, .invisible), ("\u{2066}x", 0x2066, .invisible),
            ("\u{FEFF}bob", 0xFEFF, .invisible), ("bob\u{FE0F}", 0xFE0F, .invisible), ("a\u{AD}b", 0xAD, .invisible),
            ("bob ", 0x20, .whiteSpace), ("a\u{3000}b", 0x3000, .whiteSpace), ("a\u{2028}", 0x2028, .whiteSpace),
            ("a\u{E000}", 0xE000, .unassigned), ("a\u{FFFF}", 0xFFFF, .unassigned),
        ]
        for (id, value, kind) in cases {
            #expect(problem(id) == .forbiddenCharacter(value, kind), "\(id.unicodeScalars.map { $0.value })")
        }
        #expect(
            problem("b\u{200B}ob")?.description
                == "it contains U+200B, an invisible formatting character (zero-width, bidirectional or other)")
    }

    @Test("bounds count Unicode scalars")
    func bounds() {
        #expect(problem("") == .empty)
        #expect(problem(String(repeating: "张", count: 64)) == nil)
        #expect(problem(String(repeating: "张", count: 65)) == .tooLong(maximum: 64))
    }

    /// Two identifiers the rule accepts are equal in Swift exactly when their bytes are
    /// equal, which is how both databases compare: checked on pairs that differ in case and
    /// pairs that would collide in Swift.
    @Test("accepted identifiers compare in Swift as in the database", arguments: StoreKind.allCases)
    func comparisons(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for (first, second) in [("Bob", "bob"), ("jos\u{E9}", "JOS\u{C9}"), ("\u{C5}", "\u{E5}")] {
                #expect(problem(first) == nil && problem(second) == nil)
                #expect(first != second)
                _ = try await store.grantManually(playerId: first, grants: ["coins": 1], reason: "test", actor: "t")
                #expect(try await store.wallet(playerId: first) == ["coins": 1])
                #expect(try await store.wallet(playerId: second).isEmpty)
            }
            // The pairs Swift calls equal: the database does not, which is why the second
            // spelling never gets past the rule.
            for (composed, variant) in [("jos\u{E9}", "jose\u{301}"), ("\u{C5}", "\u{212B}")] {
                #expect(composed == variant)
                #expect(problem(variant) != nil)
                #expect(try await store.wallet(playerId: variant).isEmpty)
            }
        }
    }

    @Test("manual grants refuse item names that are not identifiers", arguments: StoreKind.allCases)
    func itemNames(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for item in ["ｃｏｉｎｓ", "coins\u{200B}", "co\nins", "coins "] {
                await #expect(throws: LedgerError.self) {
                    _ = try await store.grantManually(playerId: "bob", grants: [item: 5], reason: "r", actor: "t")
                }
            }
            let wallet = try await store.wallet(playerId: "bob")
            #expect(wallet.isEmpty)
        }
    }
}
