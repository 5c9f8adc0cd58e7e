import Foundation

/// The order `lt`, `le`, `gt` and `ge` conditions use.
///
/// Numbers (int, decimal, double) compare numerically, exactly when neither is
/// a double; strings compare as Swift orders them (by Unicode scalars of the
/// canonical form); dates with dates and datetimes with datetimes. Any other
/// pair, null included, is unordered, and every comparison with it is false.
enum ValueOrdering {
    /// The order of two values, or `nil` when they are not comparable.
    static func compare(_ lhs: Value, _ rhs: Value) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.int(let left), .int(let right)): return order(left, right)
        case (.string(let left), .string(let right)): return order(left, right)
        case (.date(let left), .date(let right)): return order(left, right)
        case (.datetime(let left), .datetime(let right)): return order(left, right)
        case (.double, _), (_, .double):
            guard let left = double(lhs), let right = double(rhs), !left.isNaN, !right.isNaN else { return nil }
            return order(left, right)
        default:
            guard let left = decimal(lhs), let right = decimal(rhs) else { return nil }
            return order(left, right)
        }
    }

    private static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : lhs == rhs ? .orderedSame : .orderedDescending
    }

    private static func double(_ value: Value) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        case .decimal(let number): number.double
        default: nil
        }
    }

    private static func decimal(_ value: Value) -> Decimal? {
        switch value {
        case .int(let number): Decimal(number)
        case .decimal(let number): Decimal(string: number.text, locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }
}
