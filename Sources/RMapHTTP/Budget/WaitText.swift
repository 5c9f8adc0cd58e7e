/// Durations as rate-limit messages show them: `0.25 s`, `42 s`, `15 min`, `2 h 05 min`.
enum WaitText {
    /// `duration` for a person.
    static func duration(_ duration: Duration) -> String {
        let parts = duration.components
        let seconds = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        if seconds < 10, seconds.rounded() != seconds { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded(.up))
        if whole < 120 { return "\(whole) s" }
        let minutes = (whole + 59) / 60
        if minutes < 120 { return "\(minutes) min" }
        return String(format: "%d h %02d min", minutes / 60, minutes % 60)
    }
}
