import ArgumentParser

/// What every `staff` subcommand that changes one account names: the account and the
/// ledger it is in.
struct StaffTarget: ParsableArguments {
    @Argument(help: "The account's name: 1 to 64 letters, digits, '.', '_' or '-'.")
    var name: String

    @OptionGroup var options: ServerOptions

    func validate() throws {
        try StaffCommand.checkName(name)
    }
}

/// Where a new password comes from.
struct StaffPasswordSource: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input instead of generating one.")
    var passwordStdin = false

    /// The password: one line of standard input with `--password-stdin`, else a generated one.
    func password() throws -> (password: String, generated: Bool) {
        try StaffCommand.password(fromStdin: passwordStdin)
    }
}
