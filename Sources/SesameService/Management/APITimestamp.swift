import Foundation

/// Dates on the Management and My Account APIs: ISO 8601 in UTC with milliseconds,
/// e.g. "2027-01-15T08:00:00.000Z" (Auth0's form).
enum APITimestamp {
    static func string(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = millis - seconds * 1000
        let components = Calendar.utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", components.year ?? 1970, components.month ?? 1,
            components.day ?? 1, components.hour ?? 0, components.minute ?? 0, components.second ?? 0, Int(fraction))
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    fileprivate static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
