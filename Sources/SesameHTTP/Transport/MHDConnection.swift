internal import CMicroHTTPD

/// One libmicrohttpd connection during an access-handler call (borrowed; libmicrohttpd owns it).
struct MHDConnection {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// One access-handler call: first call (headers read) checks the declared length; calls with data
    /// append it under the body limit; the call after the upload completes runs the pipeline and queues
    /// the response (queuing on the first call would make libmicrohttpd 0.9.75 close the connection).
    func handle(
        core: ServerCore, state: RequestState, method: String, version: String, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let limit = core.limits.maxBodyBytes
        if !state.headersSeen {
            state.headersSeen = true
            if let declared = value(header: "Content-Length").flatMap({ Int($0) }), declared > limit {
                return reject(core: core, state: state, method: method, version: version, limit: limit)
            }
            return .YES
        }
        if state.responded {
            uploadDataSize.pointee = 0  // the answer is queued; discard whatever still arrives
            return .YES
        }
        let size = uploadDataSize.pointee
        if size > 0 {
            guard let uploadData, size <= limit - state.body.count else {
                // Over the limit mid-upload (no or a false Content-Length). libmicrohttpd 0.9.75 does not
                // accept a response until the upload is complete, so drop the connection; read no more.
                state.responded = true
                core.responder.log.log(
                    .warn, "request body over the limit; connection closed",
                    fields: [("limit", String(limit)), ("client_ip", peerAddress())])
                return .NO
            }
            state.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            uploadDataSize.pointee = 0
            return .YES
        }
        state.responded = true
        core.connections.requestReceived(tableID)
        let received = request(state: state, method: method, version: version)
        // A request that sat in its socket while every worker was busy is answered at once.
        let shed = core.shedder.rejection(path: received.path, socket: socket)
        if shed != nil { core.shedCounter.increment() }
        let response = core.responder.respond(
            to: received, connectionScheme: core.connectionScheme, startedAt: state.startedAt, rejection: shed)
        return queue(response, draining: core.draining.load(ordering: .relaxed))
    }

    private func reject(core: ServerCore, state: RequestState, method: String, version: String, limit: Int)
        -> MHD_Result
    {
        state.responded = true
        core.connections.requestReceived(tableID)
        var received = request(state: state, method: method, version: version)
        received.body = []
        let response = core.responder.respond(
            to: received, connectionScheme: core.connectionScheme, startedAt: state.startedAt,
            rejection: .requestTooLarge(limit: limit))
        return queue(response, draining: true)
    }

    private func request(state: RequestState, method: String, version: String) -> HTTPRequest {
        let (path, query) = HTTPRequest.splitTarget(state.rawTarget)
        return HTTPRequest(
            method: HTTPMethod(method), path: path, rawQuery: query, headers: headers(), body: state.body,
            remoteAddress: peerAddress(), httpVersion: version)
    }

    func value(header name: String) -> String? {
        MHD_lookup_connection_value(pointer, .HEADER_KIND, name).map { String(cString: $0) }
    }

    func headers() -> HTTPHeaders {
        let box = HeaderBox()
        withExtendedLifetime(box) {
            _ = MHD_get_connection_values_n(
                pointer, .HEADER_KIND, MHDCallbacks.collectHeader, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.headers
    }

    /// The connection's id in the `ConnectionTable` (0 if it has none).
    var tableID: UInt { UInt(bitPattern: sesame_MHD_connection_socket_context(pointer)) }

    /// The connection's socket.
    var socket: Int32 { sesame_MHD_connection_fd(pointer) }

    func peerAddress() -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            buffer.initialize(repeating: 0)
            guard let base = buffer.baseAddress, sesame_MHD_connection_client_ip(pointer, base, buffer.count) == 0
            else { return "" }
            buffer[buffer.count - 1] = 0
            return String(cString: base)
        }
    }

    /// Queues the response; `draining` adds `Connection: close`. When libmicrohttpd refuses any
    /// part of it, the answer is `.NO`: the connection is closed rather than sent half a response.
    func queue(_ response: HTTPResponse, draining: Bool) -> MHD_Result {
        do throws(MicroHTTPDError) {
            let owned = try MHDResponse(body: response.body)
            for field in response.headers where MHDResponse.isSettable(field.name, field.value) {
                try owned.add(header: field.name, value: field.value)
            }
            if draining { try owned.add(header: "Connection", value: "close") }
            try MicroHTTPDError.check(
                MHD_queue_response(pointer, UInt32(clamping: response.status), owned.pointer),
                .queue(status: response.status))
            return .YES
        } catch {
            return .NO
        }
    }
}
