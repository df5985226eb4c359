import SesameQR

/// A QR code drawn with Unicode half blocks, two modules a character cell, black on white with
/// ANSI colours and a quiet zone, for a terminal to show and a phone to scan (libqrencode).
enum TerminalQR {
    /// The code for `text` (error correction M), or nil when libqrencode cannot encode it.
    static func render(_ text: String) -> String? {
        guard let modules = matrix(text) else { return nil }
        let size = modules.count
        let quiet = 2
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            return r >= 0 && r < size && c >= 0 && c < size && modules[r][c]
        }
        var lines: [String] = []
        let span = size + 2 * quiet
        for row in stride(from: 0, to: span, by: 2) {
            var line = "\u{1B}[30;47m"
            for column in 0..<span {
                switch (dark(row, column), dark(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The modules, row by row (true: dark).
    static func matrix(_ text: String) -> [[Bool]]? { QRMatrix(text)?.modules }
}
