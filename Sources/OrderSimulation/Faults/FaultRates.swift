import Foundation

/// The rate of each fault kind a run injects; kinds left out are off.
public struct FaultRates: Hashable, Sendable {
    /// Fault kind → rate in 0...1.
    public private(set) var rates: [FaultKind: Double]

    /// Every fault at its default rate.
    public static let all = FaultRates(
        rates: Dictionary(uniqueKeysWithValues: FaultKind.allCases.map { ($0, $0.defaultRate) }))
    /// No faults.
    public static let none = FaultRates(rates: [:])

    /// Creates rates; each is clamped to 0...1.
    public init(rates: [FaultKind: Double]) {
        self.rates = rates.mapValues { min(max($0.isNaN ? 0 : $0, 0), 1) }
    }

    /// Parses `all`, `none`, or a comma-separated list of kinds, each at its default rate
    /// or at `kind=rate` (`appKill,networkDrop=0.2`).
    public init(parsing list: String) throws(SimulationError) {
        switch list {
        case "all": self = .all
        case "none": self = .none
        default:
            var rates: [FaultKind: Double] = [:]
            for item in list.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1).map {
                    String($0).trimmingCharacters(in: .whitespaces)
                }
                // An item of only "=" splits into nothing: no name, an unknown fault.
                let name = parts.first ?? ""
                guard let kind = FaultKind(rawValue: name) else {
                    throw SimulationError(
                        "unknown fault \"\(name)\"; the kinds are "
                            + FaultKind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                guard parts.count == 2 else {
                    rates[kind] = kind.defaultRate
                    continue
                }
                guard let rate = Double(parts[1]), (0...1).contains(rate) else {
                    throw SimulationError(
                        "the rate of \(kind.rawValue) must be a number from 0 to 1, not \"\(parts[1])\"")
                }
                rates[kind] = rate
            }
            self.init(rates: rates)
        }
    }

    /// The rate of `kind` (0 when off).
    public subscript(kind: FaultKind) -> Double {
        rates[kind] ?? 0
    }
}
