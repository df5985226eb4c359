import Testing

@testable import SesameHTTP

@Suite("HTTPRequest header helpers")
struct HTTPRequestTests {
    func request(contentType: String?, host: String = "login.example.com") -> HTTPRequest {
        var headers: HTTPHeaders = ["Host": host]
        if let contentType { headers.replaceOrAdd(name: "Content-Type", value: contentType) }
        return HTTPRequest(method: .post, target: "/oauth/token", headers: headers)
    }

    @Test func mediaTypeDropsParametersSpaceAndCase() {
        #expect(request(contentType: "application/json").mediaType == "application/json")
        #expect(request(contentType: "application/json; charset=utf-8").mediaType == "application/json")
        #expect(request(contentType: " Application/JSON ;charset=UTF-8").mediaType == "application/json")
        #expect(
            request(contentType: "\tapplication/x-www-form-urlencoded").mediaType
                == "application/x-www-form-urlencoded")
        #expect(request(contentType: ";").mediaType == "")
        #expect(request(contentType: "").mediaType == "")
        #expect(request(contentType: nil).mediaType == nil)
    }

    @Test func hostWithoutPortLowercasesOnlyWhenItMust() {
        #expect(HTTPRequest.hostWithoutPort("login.example.com:8443") == "login.example.com")
        #expect(HTTPRequest.hostWithoutPort("Login.Example.COM") == "login.example.com")
        #expect(HTTPRequest.hostWithoutPort(" login.example.com:80 ") == "login.example.com")
        #expect(HTTPRequest.hostWithoutPort("[::1]:8080") == "[::1]")
        #expect(HTTPRequest.hostWithoutPort("localhost") == "localhost")
    }
}
