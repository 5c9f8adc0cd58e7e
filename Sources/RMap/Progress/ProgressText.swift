/// How progress shows numbers: record counts, byte sizes, rates and durations.
enum ProgressText {
    /// `1,234,567`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index).isMultiple(of: 3) { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `512 B`, `2.1 KiB`, `176.0 MiB`, `1.4 GiB`.
    static func bytes(_ value: Int) -> String {
        guard value >= 1024 else { return "\(value) B" }
        var scaled = Double(value) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if scaled < 1024 || unit == "GiB" { return "\(tenths(scaled)) \(unit)" }
            scaled /= 1024
        }
        return "\(value) B"
    }

    /// `0.04s`, `2.35s`, `12s`, `1m05s`.
    static func duration(_ duration: Duration) -> String {
        let value = seconds(duration)
        if value < 10 {
            let hundredths = Int((value * 100).rounded())
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)s"
        }
        return whole(Int(value.rounded()))
    }

    /// Whole seconds rounded up: `1s`, `45s`, `2m00s` (an estimate shows no fractions).
    static func estimate(_ duration: Duration) -> String {
        whole(Int(seconds(duration).rounded(.up)))
    }

    /// `1,200 records/s`, or nothing when no time has passed.
    static func rate(_ records: Int, over duration: Duration) -> String? {
        let elapsed = seconds(duration)
        guard elapsed > 0 else { return nil }
        return "\(count(Int((Double(records) / elapsed).rounded()))) records/s"
    }

    /// The duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private static func whole(_ seconds: Int) -> String {
        guard seconds >= 60 else { return "\(seconds)s" }
        let rest = seconds % 60
        return "\(seconds / 60)m\(rest < 10 ? "0" : "")\(rest)s"
    }

    private static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
