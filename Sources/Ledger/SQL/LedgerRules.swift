import Foundation

/// Checks and event details shared by both stores, so they behave identically.
enum LedgerRules {
}
