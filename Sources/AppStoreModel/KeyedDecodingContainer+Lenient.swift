extension KeyedDecodingContainer {
    /// Decodes an integer that may arrive as a JSON number or as a JSON string holding a
    /// decimal integer; `nil` when the key is absent or the value is `null`.
    func decodeLenientInt64IfPresent(forKey key: Key) throws -> Int64? {
        guard let number = try decodeIfPresent(StringNumber.self, forKey: key) else {
            return nil
        }
        guard let value = number.int64Value else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "Expected an integer, found \"\(number.stringValue)\"")
        }
        return value
    }

    /// Decodes a flag that may arrive as a JSON Boolean, a JSON number (`0`/`1`) or a
    /// JSON string (`"true"`, `"false"`, `"1"`, `"0"`); `nil` when the key is absent or
    /// the value is `null`.
    func decodeLenientBoolIfPresent(forKey key: Key) throws -> Bool? {
        guard let flag = try decodeIfPresent(StringBool.self, forKey: key) else {
            return nil
        }
        guard let value = flag.boolValue ?? StringNumber(stringValue: flag.stringValue).boolValue
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "Expected a Boolean, found \"\(flag.stringValue)\"")
        }
        return value
    }
}
