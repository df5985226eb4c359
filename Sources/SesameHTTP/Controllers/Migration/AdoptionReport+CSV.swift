import Foundation
import SesameService

extension HTTPResponse {
    /// The adoption report as CSV (the Management API's `format=csv`, the admin page's download).
    static func csv(_ report: AdoptionReport, filename: String? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: Array(AdoptionCSV.text(report).utf8))
        response.headers.replaceOrAdd(name: "Content-Type", value: "text/csv; charset=utf-8")
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        if let filename {
            response.headers.replaceOrAdd(name: "Content-Disposition", value: "attachment; filename=\"\(filename)\"")
        }
        return response
    }
}
