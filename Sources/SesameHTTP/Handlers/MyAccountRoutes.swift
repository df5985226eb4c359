extension SesameApplication {
    /// `/me/v1` (API.md §5).
    func addMyAccountRoutes(to router: inout Router) {
    }
}
