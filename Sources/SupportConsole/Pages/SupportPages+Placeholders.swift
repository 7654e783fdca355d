extension SupportPages {
    /// The string `key` in the caller's language with each `{name}` replaced by
    /// `values[name]` (values are formatted already; names the string lacks are ignored).
    func text(_ key: String, _ caller: ConsoleCaller, _ values: [String: String]) -> String {
        values.reduce(text(key, caller)) { sentence, value in
            sentence.replacingOccurrences(of: "{\(value.key)}", with: value.value)
        }
    }
}
