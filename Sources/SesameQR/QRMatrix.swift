internal import CQRencode

/// A QR code's modules from libqrencode (error correction M, 8-bit mode): what the CLI draws in
/// a terminal and the hosted pages draw as SVG. The only Swift type that holds a `QRcode`.
public struct QRMatrix: Sendable, Equatable {
    /// The modules, row by row (true: dark); square.
    public let modules: [[Bool]]

    /// The code for `text`, or nil when libqrencode cannot encode it (too long).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }

    public var size: Int { modules.count }

    /// The code as an SVG document: one path of unit squares, a 4-module quiet zone, black on
    /// white, scaled by the page (no script, no external reference).
    public var svg: String {
        let quiet = 4
        let span = size + 2 * quiet
        var path = ""
        for (row, line) in modules.enumerated() {
            var column = 0
            while column < line.count {
                guard line[column] else {
                    column += 1
                    continue
                }
                var run = 1
                while column + run < line.count, line[column + run] { run += 1 }
                path += "M\(column + quiet) \(row + quiet)h\(run)v1h-\(run)z"
                column += run
            }
        }
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(span) \(span)\" shape-rendering=\"crispEdges\" "
            + "role=\"img\"><rect width=\"\(span)\" height=\"\(span)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
