import Foundation
import SesameCrypto
import SesameService

/// `/healthz`, and `/metrics`: on the API listener for holders of the metrics token, or with no
/// token on a listener of its own (`sesame serve --metrics-listen`).
struct SystemController: Sendable {
    let tenancy: TenancyService
    let metrics: Metrics
    /// SHA-256 of the token that reads `/metrics` on the API listener (nil: not served there).
    let metricsTokenHash: [UInt8]?

    func register(to group: inout RouteGroup<RequestContext>) {
        group.get("/healthz", handler: health)
        if metricsTokenHash != nil { group.get("/metrics", handler: protectedMetrics) }
    }

    /// The routes of a separate metrics listener. Bind it to an address only the scraper reaches
    /// (loopback or a private network).
    func register(to router: inout Router) {
        router.get("/metrics") { _, _ in metrics.response() }
        router.get("/healthz", handler: health)
    }

    /// 200 when the store answers, else 503.
    func health(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        do {
            try tenancy.checkHealth()
        } catch {
            throw ServiceError.unavailable("the store is not answering")
        }
        return .json(bytes: Array(#"{"status":"ok"}"#.utf8))
    }

    func protectedMetrics(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        guard let tokenHash = metricsTokenHash, let presented = Self.bearerToken(request),
            constantTimeEquals(Digest.sha256(Array(presented.utf8)), tokenHash)
        else {
            throw HTTPError(
                status: 401, error: "invalid_token", description: "/metrics needs the metrics bearer token",
                headers: ["WWW-Authenticate": #"Bearer realm="metrics""#])
        }
        return metrics.response()
    }

    /// The token of an `Authorization: Bearer` header, or nil.
    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Authorization"], value.utf8.count > 7,
            value.prefix(7).lowercased() == "bearer "
        else { return nil }
        return HTTPRequest.trimmingOWS(value.dropFirst(7))
    }
}
