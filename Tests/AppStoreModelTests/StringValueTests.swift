import AppStoreModel
import Foundation
import Testing

struct StringNumberTests {
    @Test func decodesAStringUnchanged() throws {
        let number = try decode(StringNumber.self, #""1708683072000""#)
        #expect(number.stringValue == "1708683072000")
        #expect(number.int64Value == 1_708_683_072_000)
    }

    @Test func decodesANumber() throws {
        let number = try decode(StringNumber.self, "1708683072000")
        #expect(number.stringValue == "1708683072000")
        #expect(number.int64Value == 1_708_683_072_000)
        #expect(try decode(StringNumber.self, "3").intValue == 3)
        #expect(try decode(StringNumber.self, "-2").intValue == -2)
    }

    @Test func decodesAnIntegralFloatingPointNumberWithoutFraction() throws {
        #expect(try decode(StringNumber.self, "1.0").stringValue == "1")
        #expect(try decode(StringNumber.self, "2.5").int64Value == nil)
    }

    @Test func stringsAndNumbersOfTheSameValueAreEqual() throws {
        #expect(try decode(StringNumber.self, #""42""#) == decode(StringNumber.self, "42"))
    }

    @Test func alwaysEncodesAsAString() throws {
        #expect(try JSONValue(encoding: StringNumber(1)) == .string("1"))
        #expect(try JSONValue(encoding: roundTrip(decode(StringNumber.self, "7"))) == .string("7"))
        let literal: StringNumber = 1_708_683_072_000
        #expect(try JSONValue(encoding: literal) == .string("1708683072000"))
    }

    @Test func keepsNonNumericTextButReadsNoNumber() throws {
        let odd = try decode(StringNumber.self, #""abc""#)
        #expect(odd.stringValue == "abc")
        #expect(odd.int64Value == nil)
        #expect(odd.intValue == nil)
        #expect(try JSONValue(encoding: odd) == .string("abc"))
    }

    @Test func readsDigitFlags() {
        #expect(StringNumber(stringValue: "1").boolValue == true)
        #expect(StringNumber(stringValue: "0").boolValue == false)
        #expect(StringNumber(stringValue: "true").boolValue == true)
        #expect(StringNumber(stringValue: "maybe").boolValue == nil)
    }

    @Test func rejectsNonScalarJSON() {
        #expect(throws: DecodingError.self) { try decode(StringNumber.self, "[1]") }
        #expect(throws: DecodingError.self) { try decode(StringNumber.self, "{}") }
    }
}

struct StringBoolTests {
    @Test func decodesApplesStrings() throws {
        #expect(try decode(StringBool.self, #""true""#).boolValue == true)
        #expect(try decode(StringBool.self, #""false""#).boolValue == false)
        #expect(try decode(StringBool.self, #""1""#).boolValue == true)
        #expect(try decode(StringBool.self, #""0""#).boolValue == false)
        #expect(try decode(StringBool.self, #""FALSE""#).boolValue == false)
        #expect(try decode(StringBool.self, #""perhaps""#).boolValue == nil)
    }

    @Test func decodesJSONBooleansAndNumbers() throws {
        let flag = try decode(StringBool.self, "true")
        #expect(flag.boolValue == true)
        #expect(flag.stringValue == "true")
        #expect(try decode(StringBool.self, "false").boolValue == false)
        #expect(try decode(StringBool.self, "0").stringValue == "0")
        #expect(try decode(StringBool.self, "0").boolValue == false)
    }

    @Test func encodesAsAStringKeepingApplesText() throws {
        #expect(try JSONValue(encoding: StringBool(false)) == .string("false"))
        let literal: StringBool = true
        #expect(try JSONValue(encoding: literal) == .string("true"))
        #expect(try JSONValue(encoding: decode(StringBool.self, #""1""#)) == .string("1"))
    }
}
