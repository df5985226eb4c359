/// Auth0-style list paging: `page` (0-based), `per_page` (1–100, default 50), `include_totals`.
public struct ListRequest: Sendable, Hashable {
    public static let defaultPerPage = 50
    public static let maxPerPage = 100

    public var page: Int
    public var perPage: Int
    public var includeTotals: Bool

    /// A page request; values are validated by `validated()`.
    public init(page: Int = 0, perPage: Int = ListRequest.defaultPerPage, includeTotals: Bool = false) {
        self.page = page
        self.perPage = perPage
        self.includeTotals = includeTotals
    }

    /// 400 naming `page` or `per_page` when out of range.
    public func validated() throws(ServiceError) -> ListRequest {
        guard page >= 0, page <= 100_000 else { throw .invalidRequest("page must be an integer from 0 to 100000") }
        guard (1...Self.maxPerPage).contains(perPage) else {
            throw .invalidRequest("per_page must be an integer from 1 to \(Self.maxPerPage)")
        }
        return self
    }
}
