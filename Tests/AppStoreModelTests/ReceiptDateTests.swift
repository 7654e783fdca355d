import AppStoreModel
import Foundation
import Testing

struct ReceiptDateTests {
    /// 2024-02-23 10:11:12 UTC: winter, Pacific Standard Time (UTC-8).
    let winter = Date(timeIntervalSince1970: 1_708_683_072)
    /// 2024-07-04 18:30:45 UTC: summer, Pacific Daylight Time (UTC-7).
    let summer = Date(timeIntervalSince1970: 1_720_117_845)

    @Test func formatsAWinterDateInPacificStandardTime() {
        let date = ReceiptDate(winter)
        #expect(date.gmt == "2024-02-23 10:11:12 Etc/GMT")
        #expect(date.milliseconds == StringNumber(stringValue: "1708683072000"))
        #expect(date.pst == "2024-02-23 02:11:12 America/Los_Angeles")
    }

    @Test func formatsASummerDateInPacificDaylightTime() {
        let date = ReceiptDate(summer)
        #expect(date.gmt == "2024-07-04 18:30:45 Etc/GMT")
        #expect(date.milliseconds?.stringValue == "1720117845000")
        #expect(date.pst == "2024-07-04 11:30:45 America/Los_Angeles")
    }

    @Test(arguments: [
        (1_710_064_799, "2024-03-10 01:59:59 America/Los_Angeles"),  // last second of PST
        (1_710_064_800, "2024-03-10 03:00:00 America/Los_Angeles"),  // first second of PDT
        (1_730_624_399, "2024-11-03 01:59:59 America/Los_Angeles"),  // last second of PDT
        (1_730_624_400, "2024-11-03 01:00:00 America/Los_Angeles"),  // back to PST
    ])
    func followsDaylightSavingTimeTransitions(seconds: Int, pst: String) {
        #expect(ReceiptDate(Date(timeIntervalSince1970: Double(seconds))).pst == pst)
    }

    @Test func keepsMillisecondsButTruncatesTextToWholeSeconds() {
        let date = ReceiptDate(Date(timeIntervalSince1970: 1_708_683_072.999))
        #expect(date.milliseconds?.stringValue == "1708683072999")
        #expect(date.gmt == "2024-02-23 10:11:12 Etc/GMT")
        #expect(date.pst == "2024-02-23 02:11:12 America/Los_Angeles")
    }

    @Test func readsTheDateBackFromMilliseconds() {
        let original = Date(timeIntervalSince1970: 1_708_683_072.123)
        let date = ReceiptDate(original).date
        #expect(date == Date(timeIntervalSince1970: 1_708_683_072.123))
    }

    @Test func prefersMillisecondsOverTheTextForms() {
        let date = ReceiptDate(
            gmt: "2000-01-01 00:00:00 Etc/GMT", milliseconds: "1708683072000",
            pst: "1999-12-31 16:00:00 America/Los_Angeles")
        #expect(date.date == winter)
    }

    @Test func fallsBackToTheGMTTextThenThePacificText() {
        #expect(ReceiptDate(gmt: "2024-02-23 10:11:12 Etc/GMT").date == winter)
        #expect(ReceiptDate(pst: "2024-07-04 11:30:45 America/Los_Angeles").date == summer)
        #expect(ReceiptDate(milliseconds: "garbage", pst: "2024-02-23 02:11:12 America/Los_Angeles").date == winter)
        #expect(ReceiptDate().date == nil)
    }

    @Test func parsesApplesTextForms() {
        #expect(ReceiptDate.parse("2024-02-23 10:11:12 Etc/GMT") == winter)
        #expect(ReceiptDate.parse("2024-02-23 02:11:12 America/Los_Angeles") == winter)
        #expect(ReceiptDate.parse("2024-07-04 11:30:45 America/Los_Angeles") == summer)
        #expect(ReceiptDate.parse("2024-02-23 10:11:12") == winter)
    }

    @Test func rejectsTextThatIsNotADate() {
        #expect(ReceiptDate.parse("") == nil)
        #expect(ReceiptDate.parse("yesterday") == nil)
        #expect(ReceiptDate.parse("2024-13-01 00:00:00 Etc/GMT") == nil)
        #expect(ReceiptDate.parse("2024-02-23 25:00:00 Etc/GMT") == nil)
        #expect(ReceiptDate.parse("2024-02-23 10:11:12 Not/AZone") == nil)
    }

    @Test func fieldsGiveAllThreeFormsOrNone() {
        let fields = ReceiptDate.fields(summer)
        #expect(fields.gmt == "2024-07-04 18:30:45 Etc/GMT")
        #expect(fields.milliseconds?.stringValue == "1720117845000")
        #expect(fields.pst == "2024-07-04 11:30:45 America/Los_Angeles")
        let none = ReceiptDate.fields(nil)
        #expect(none.gmt == nil && none.milliseconds == nil && none.pst == nil)
    }

    @Test func roundTripsThroughJSON() throws {
        let date = ReceiptDate(summer)
        #expect(try roundTrip(date) == date)
    }
}
