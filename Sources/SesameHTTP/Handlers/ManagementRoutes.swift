extension SesameApplication {
    /// `/api/v2` (API.md §4).
    func addManagementRoutes(to router: inout Router) {
    }
}
