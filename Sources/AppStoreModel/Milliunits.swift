/// Apple's unit for shares and percentages (`consumptionPercentage`,
/// `revocationPercentage`): thousandths of a percent.
public enum Milliunits {
    /// 100 % in milliunits.
    public static let whole = 100_000
}
