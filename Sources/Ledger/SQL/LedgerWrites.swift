import Foundation

/// The writes of more than one statement, each written once as a ``LedgerOperation`` that
/// both stores run in one transaction. What happens exactly once is decided inside the
/// database: by uniqueness constraints (`INSERT … ON CONFLICT DO NOTHING RETURNING`) and
/// conditional updates that return a row only when they changed it.
enum LedgerWrites {
}
