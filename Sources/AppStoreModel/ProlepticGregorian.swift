/// Calendar arithmetic on the proleptic Gregorian calendar (the one RFC 3339 and Apple's
/// dates use, extended before 1582), without Foundation's `Calendar`, which switches to
/// the Julian calendar there. Howard Hinnant's days-from-civil algorithms.
public enum ProlepticGregorian {
    /// Days from 1970-01-01 to `year`-`month`-`day` (negative before 1970).
    ///
    /// - Parameters:
    ///   - year: any year (0 is 1 BC).
    ///   - month: 1 to 12.
    ///   - day: 1 to the month's length (see ``daysIn(month:of:)``).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01, for `days` within a few million years of 1970.
    public static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let remainder = (shifted % 146_097 + 146_097) % 146_097
        let era = (shifted - remainder) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// How many days `month` (1 to 12) of `year` has.
    public static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
