import Foundation

/// `sesame stats` in the terminal: one line per day with the methods and the passkey share of
/// device authentications as a number and a bar, then the users' split.
enum StatsTable {
    static func text(_ report: [String: Any]) -> String {
        let days = report["days"] as? [[String: Any]] ?? []
        var lines = [
            "date         total  passkey  device_key  password  apple  refresh   share"
        ]
        for day in days {
            let methods = day["by_method"] as? [String: Int] ?? [:]
            func column(_ value: Int?, _ width: Int) -> String {
                let text = String(value ?? 0)
                return String(repeating: " ", count: max(0, width - text.count)) + text
            }
            var line =
                (day["date"] as? String ?? "").padding(toLength: 11, withPad: " ", startingAt: 0)
                + column(day["total"] as? Int, 7) + column(methods["passkey"], 9) + column(methods["device_key"], 12)
                + column(methods["password"], 10) + column(methods["apple"], 7) + column(methods["refresh"], 9)
            if let share = day["device_auth_passkey_share"] as? Double {
                let percent = String(format: "%.1f%%", share * 100)
                line += String(repeating: " ", count: max(0, 8 - percent.count)) + percent + " "
                line += String(repeating: "█", count: Int((share * 20).rounded()))
            } else {
                line += "       —"
            }
            lines.append(line)
        }
        let users = report["users"] as? [String: Int] ?? [:]
        lines.append(
            "users: \(users["total"] ?? 0) total, \(users["with_passkey"] ?? 0) with a passkey, "
                + "\(users["with_device_key_only"] ?? 0) with a device key only, \(users["password_only"] ?? 0) with neither"
        )
        return lines.joined(separator: "\n") + "\n"
    }
}
