import Foundation
import Synchronization
import Testing

@testable import SesameHTTP

/// What ran, in order.
final class CallLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// A context a test group derives: the name its Host header gave.
struct NamedContext: Sendable {
    let base: RequestContext
    let name: String
}

@Suite("Route groups: derived contexts, middleware and error styles")
struct RouteGroupTests {
    static func request(_ target: String, method: HTTPMethod = .get, host: String = "a.example") -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: ["Host": host, "Accept": "*/*"])
    }

    /// A group that derives a `NamedContext` from the Host, refusing the host `unknown.example`.
    static func named(_ root: RouteGroup<RequestContext>, calls: CallLog) -> RouteGroup<NamedContext> {
        root.derived { request, context in
            calls.append("derive")
            guard request.host != "unknown.example" else { throw HTTPError.notFound("no tenant for this host") }
            return NamedContext(base: context, name: request.host)
        }
    }

    @Test func handlersGetTheDerivedContextAndItsPathParameters() throws {
        let calls = CallLog()
        var group = Self.named(.root(), calls: calls)
        group.get("/items/{id}") { _, context in
            .text("\(context.name)/\(try context.base.pathParameter("id"))")
        }
        var router = Router()
        router.add(group)
        let response = HTTPResponder(router: router).respond(to: Self.request("/items/7"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "a.example/7")
        #expect(calls.all == ["derive"])
    }

    @Test func aRefusedDerivationRunsNoHandler() throws {
        let calls = CallLog()
        var group = Self.named(.root(), calls: calls)
        group.get("/x") { _, _ in
            calls.append("handler")
            return .text("ran")
        }
        var router = Router()
        router.add(group)
        let response = HTTPResponder(router: router).respond(to: Self.request("/x", host: "unknown.example"))
        #expect(response.status == 404)
        #expect(calls.all == ["derive"])
    }

    @Test func middlewareRunsInTheOrderTheGroupsWereMadeAndSeesTheResponse() throws {
        let calls = CallLog()
        let outer = RouteGroup.root().wrapped { request, context, next in
            calls.append("outer")
            var response = try next(request, context)
            response.headers.add(name: "Set-Cookie", value: "a=1")
            return response
        }
        var group = Self.named(outer, calls: calls).wrapped { request, context, next in
            calls.append("inner:\(context.name)")
            return try next(request, context)
        }
        group.get("/x") { _, _ in
            calls.append("handler")
            return .text("ok")
        }
        var router = Router()
        router.add(group)
        let response = HTTPResponder(router: router).respond(to: Self.request("/x"))
        #expect(response.status == 200)
        #expect(calls.all == ["outer", "derive", "inner:a.example", "handler"])
        #expect(response.headers.values(for: "Set-Cookie") == ["a=1"])
    }

    @Test func aWrongMethodIs405WithoutRunningTheChain() throws {
        let calls = CallLog()
        var group = Self.named(.root(), calls: calls)
        group.post("/x") { _, _ in .text("ok") }
        var router = Router()
        router.add(group)
        let response = HTTPResponder(router: router).respond(to: Self.request("/x", method: .get))
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "OPTIONS, POST")
        #expect(calls.all.isEmpty)
    }

    @Test func aLimitedGroupSpendsATokenPerRequestBeforeDerivingAnything() throws {
        let calls = CallLog()
        let limiter = RateLimiter(requestsPerMinute: 1, clock: { 5 })
        var group = Self.named(RouteGroup.root().limited(by: limiter), calls: calls)
        group.get("/x") { _, _ in .text("ok") }
        var router = Router()
        router.add(group)
        let responder = HTTPResponder(router: router)
        #expect(responder.respond(to: Self.request("/x")).status == 200)
        let refused = responder.respond(to: Self.request("/x"))
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "60")
        #expect(calls.all == ["derive"])
    }

    @Test func errorsTakeTheirGroupsStyle() throws {
        var router = Router()
        var pages = RouteGroup.root(errorStyle: .html)
        pages.get("/page") { _, _ in throw HTTPError.invalidRequest("the <b>form</b> & its \"field\" are wrong") }
        router.add(pages)
        var problems = RouteGroup.root(errorStyle: .problem, pathPrefix: "/me/")
        problems.get("/me/thing") { _, _ in throw HTTPError.notFound("no such thing") }
        router.add(problems)
        var api = RouteGroup.root()
        api.get("/api") { _, _ in throw HTTPError.invalidRequest("bad") }
        router.add(api)
        let responder = HTTPResponder(router: router)

        let page = responder.respond(to: Self.request("/page"))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 400)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(html.contains("<h1>Bad request</h1>"))
        #expect(html.contains("the &lt;b&gt;form&lt;/b&gt; &amp; its &quot;field&quot; are wrong"))
        #expect(!html.contains("<b>"))
        // A wrong method on a page is a page too.
        let wrongMethod = responder.respond(to: Self.request("/page", method: .post))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Content-Type"] == "text/html; charset=utf-8")

        let problem = responder.respond(to: Self.request("/me/thing"))
        #expect(String(decoding: problem.body, as: UTF8.self).contains(#""title":"not_found""#))
        // An unknown path under the prefix is written as the group writes.
        let unknown = responder.respond(to: Self.request("/me/other"))
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains(#""detail":"no route for this path""#))

        let oauth = responder.respond(to: Self.request("/api"))
        #expect(
            String(decoding: oauth.body, as: UTF8.self) == #"{"error":"invalid_request","error_description":"bad"}"#)
    }

    @Test func anErrorCarriesRepeatedHeadersAndReplacesDefaults() throws {
        var headers: HTTPHeaders = ["Cache-Control": "private"]
        headers.add(name: "Set-Cookie", value: "a=; Max-Age=0")
        headers.add(name: "Set-Cookie", value: "b=; Max-Age=0")
        let response = HTTPError(status: 401, error: "login_required", description: "sign in", headers: headers)
            .response(style: .html)
        #expect(response.headers.values(for: "Set-Cookie") == ["a=; Max-Age=0", "b=; Max-Age=0"])
        #expect(response.headers.values(for: "Cache-Control") == ["private"])
    }
}
