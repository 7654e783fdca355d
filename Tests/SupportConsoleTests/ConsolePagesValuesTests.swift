import Testing

@testable import SupportConsole

/// How the pages show the details of history events.
@Suite("Console event details")
struct ConsolePagesValuesTests {
    @Test("epoch milliseconds of the device and of Apple read as UTC dates, with the number kept")
    func millisecondDetails() {
        #expect(
            SupportPages.detailValue(key: "occurredAt", "1795494817066")
                == "2026-11-24 04:33:37 UTC (1795494817066)")
        #expect(SupportPages.detailValue(key: "signedDate", "0") == "1970-01-01 00:00:00 UTC (0)")
        #expect(SupportPages.detailValue(key: "occurredAt", "soon") == "soon")
        #expect(SupportPages.detailValue(key: "occurredAt", "-5") == "-5")
        #expect(SupportPages.detailValue(key: "occurredAt", "99999999999999999") == "99999999999999999")
        #expect(SupportPages.detailValue(key: "quantity", "1795494817066") == "1795494817066")
    }
}
