/// The rules for staff account names, shared by the console and the `storekeeper staff`
/// commands.
public enum StaffNames {
    /// Why `name` cannot name a staff account (1 to 64 letters, digits, `.`, `_`, `-`), or
    /// `nil` when it can.
    public static func problem(with name: String) -> String? {
        guard (1...64).contains(name.count) else { return "a staff name has 1 to 64 characters" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "." || scalar == "_" || scalar == "-")
        }
        return allowed ? nil : "a staff name has only letters, digits, '.', '_' and '-'"
    }
}
