public import Foundation

/// A Swift type that an attribute of a run's object (a stage's ``StagedObject``) or a
/// live object can be read as and written from.
///
/// ```swift
/// let name: String? = try person["firstName"]
/// let id: Int? = try person["id"]
/// try person.set("email", to: "ada@lovelace.org")
/// ```
public protocol ValueConvertible: Sendable {
    /// The value as stored.
    var value: Value { get }
    /// The Swift value of a stored one, `nil` when its case is not this type's.
    init?(value: Value)
}

extension Value: ValueConvertible {
    /// The value itself.
    public var value: Value { self }
    /// Any value.
    public init?(value: Value) { self = value }
}

extension String: ValueConvertible {
    /// `.string`.
    public var value: Value { .string(self) }
    /// From `.string`.
    public init?(value: Value) {
        guard case .string(let text) = value else { return nil }
        self = text
    }
}

extension Int: ValueConvertible {
    /// `.int`.
    public var value: Value { .int(Int64(self)) }
    /// From `.int`.
    public init?(value: Value) {
        guard case .int(let number) = value else { return nil }
        self = Int(number)
    }
}

extension Double: ValueConvertible {
    /// `.double`.
    public var value: Value { .double(self) }
    /// From `.double` or `.int`.
    public init?(value: Value) {
        switch value {
        case .double(let number): self = number
        case .int(let number): self = Double(number)
        default: return nil
        }
    }
}

extension Bool: ValueConvertible {
    /// `.bool`.
    public var value: Value { .bool(self) }
    /// From `.bool`.
    public init?(value: Value) {
        guard case .bool(let flag) = value else { return nil }
        self = flag
    }
}

extension DecimalNumber: ValueConvertible {
    /// `.decimal`.
    public var value: Value { .decimal(self) }
    /// From `.decimal`.
    public init?(value: Value) {
        guard case .decimal(let number) = value else { return nil }
        self = number
    }
}

extension LocalDate: ValueConvertible {
    /// `.date`.
    public var value: Value { .date(self) }
    /// From `.date`.
    public init?(value: Value) {
        guard case .date(let date) = value else { return nil }
        self = date
    }
}

extension Timestamp: ValueConvertible {
    /// `.datetime`.
    public var value: Value { .datetime(self) }
    /// From `.datetime`.
    public init?(value: Value) {
        guard case .datetime(let time) = value else { return nil }
        self = time
    }
}

extension Date: ValueConvertible {
    /// `.datetime`, to the millisecond.
    public var value: Value { .datetime(Timestamp(milliseconds: Int64((timeIntervalSince1970 * 1000).rounded()))) }
    /// From `.datetime`, or `.date` (its midnight UTC).
    public init?(value: Value) {
        switch value {
        case .datetime(let time): self.init(timeIntervalSince1970: Double(time.milliseconds) / 1000)
        case .date(let date): self.init(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400)
        default: return nil
        }
    }
}

extension Decimal: ValueConvertible {
    /// `.decimal`.
    public var value: Value { .decimal(DecimalNumber(validated: description)) }
    /// From `.decimal` (or `.int`).
    public init?(value: Value) {
        switch value {
        case .decimal(let number): self.init(string: number.text, locale: Locale(identifier: "en_US_POSIX"))
        case .int(let number): self.init(number)
        default: return nil
        }
    }
}
