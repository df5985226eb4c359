import Testing

@testable import SesameHTTP

@Suite("Router")
struct RouterTests {
    /// A router whose handlers answer with the route name and the parameters they saw.
    static func makeRouter() -> Router {
        var router = Router()
        router.get("/api/v2/clients") { _, _ in .text("list") }
        router.post("/api/v2/clients") { _, _ in .text("create", status: 201) }
        router.get("/api/v2/clients/{id}") { _, context in .text("get " + (try context.pathParameter("id"))) }
        router.delete("/api/v2/clients/{id}") { _, context in .text("delete " + (try context.pathParameter("id"))) }
        router.post("/me/v1/authentication-methods/passkey/verify") { _, _ in .text("verify") }
        router.patch("/me/v1/authentication-methods/{id}/verify") { _, c in
            .text("patch " + (c.pathParameters["id"] ?? ""))
        }
        router.get("/users/{user}/authentication-methods/{method}") { _, c in
            .text("\(c.pathParameters["user"] ?? "")|\(c.pathParameters["method"] ?? "")")
        }
        router.get("/") { _, _ in .text("root") }
        return router
    }

    func run(_ method: HTTPMethod, _ target: String) throws -> (HTTPResponse, RequestContext) {
        var context = RequestContext()
        let response = try Self.makeRouter().respond(
            to: HTTPRequest(method: method, target: target), context: &context)
        return (response, context)
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func literalRouteAndPattern() throws {
        let (response, context) = try run(.get, "/api/v2/clients")
        #expect(text(response) == "list")
        #expect(context.routePattern == "/api/v2/clients")
        // The same literal path percent-encoded, and HEAD on it, reach the same route.
        #expect(text(try run(.get, "/api/v2/%63lients").0) == "list")
        #expect(try run(.head, "/api/v2/clients").1.routePattern == "/api/v2/clients")
        #expect(text(try run(.get, "/").0) == "root")
    }

    @Test func parameterIsPercentDecodedAndRecorded() throws {
        let (response, context) = try run(.get, "/api/v2/clients/abc%20d%2Fe?x=1")
        #expect(text(response) == "get abc d/e")
        #expect(context.routePattern == "/api/v2/clients/{id}")
        #expect(context.pathParameters == ["id": "abc d/e"])
    }

    @Test func twoParameters() throws {
        let (response, _) = try run(.get, "/users/u1/authentication-methods/m2")
        #expect(text(response) == "u1|m2")
    }

    @Test func literalBeatsParameterAndParameterStillServesOtherMethods() throws {
        #expect(text(try run(.post, "/me/v1/authentication-methods/passkey/verify").0) == "verify")
        // Same path, a method only the parameter route has: the parameter route answers.
        #expect(text(try run(.patch, "/me/v1/authentication-methods/passkey/verify").0) == "patch passkey")
    }

    @Test func unknownPathIs404() throws {
        #expect(throws: HTTPError.notFound("no route for this path")) { try run(.get, "/api/v2/nothing") }
        #expect(throws: HTTPError.notFound("no route for this path")) { try run(.get, "/api/v2/clients/") }
        #expect(throws: HTTPError.notFound("no route for this path")) { try run(.get, "/api/v2/clients/%zz") }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let error = #expect(throws: HTTPError.self) { try run(.put, "/api/v2/clients/7") }
        #expect(error?.status == 405)
        #expect(error?.error == "method_not_allowed")
        #expect(error?.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        let response = try #require(error?.response)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test func headRunsTheGetHandler() throws {
        let (response, context) = try run(.head, "/api/v2/clients/9")
        #expect(text(response) == "get 9")
        #expect(context.routePattern == "/api/v2/clients/{id}")
    }

    @Test func optionsAnswers204WithAllow() throws {
        let (response, _) = try run(.options, "/api/v2/clients")
        #expect(response.status == 204)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS, POST")
    }

    @Test func rootRoute() throws {
        #expect(text(try run(.get, "/").0) == "root")
    }

    @Test func laterRegistrationReplaces() throws {
        var router = Self.makeRouter()
        router.get("/api/v2/clients") { _, _ in .text("replaced") }
        var context = RequestContext()
        let response = try router.respond(to: HTTPRequest(method: .get, target: "/api/v2/clients"), context: &context)
        #expect(text(response) == "replaced")
    }
}
