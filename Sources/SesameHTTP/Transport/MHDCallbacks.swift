internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `@convention(c)` trampolines libmicrohttpd calls. `cls` is always an unretained `ServerCore`;
/// each request's `RequestState` lives in `con_cls` as a retained pointer released on completion.
enum MHDCallbacks {
    /// Called with the raw request target when the request line is read; its result becomes `con_cls`.
    static let uriLog:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
            -> UnsafeMutableRawPointer? = { cls, uri, _ in
                guard let cls else { return nil }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                let target = uri.map { String(cString: $0) } ?? "/"
                return Unmanaged.passRetained(RequestState(rawTarget: target, core: core)).toOpaque()
            }

    /// Called when a request ends (answered, failed, or the client went away): frees its state
    /// and starts the connection's deadline for its next request.
    static let completed:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            MHD_RequestTerminationCode
        ) -> Void = { cls, connection, conCls, _ in
            if let cls, let connection {
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                core.connections.requestCompleted(MHDConnection(connection).tableID)
            }
            guard let conCls, let state = conCls.pointee else { return }
            Unmanaged<RequestState>.fromOpaque(state).release()
            conCls.pointee = nil
        }

    /// Called when a connection is accepted and when it closes (before its socket is closed): keeps
    /// the connection table, whose id for the connection lives in the socket context.
    static let connectionNotification:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            MHD_ConnectionNotificationCode
        ) -> Void = { cls, connection, socketContext, code in
            guard let cls, let connection, let socketContext else { return }
            let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
            switch code {
            case .CONNECTION_NOTIFY_STARTED:
                let wrapped = MHDConnection(connection)
                let id = core.connections.opened(socket: wrapped.socket, address: wrapped.peerAddress())
                socketContext.pointee = UnsafeMutableRawPointer(bitPattern: id)
            case .CONNECTION_NOTIFY_CLOSED:
                if let context = socketContext.pointee { core.connections.closed(UInt(bitPattern: context)) }
                socketContext.pointee = nil
            default:
                break
            }
        }

    /// Decides whether to accept a connection from `address` (the headroom rule of `ConnectionTable`).
    static let acceptPolicy:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sockaddr>?, socklen_t) -> MHD_Result = {
            cls, address, _ in
            guard let cls else { return .YES }
            let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
            var buffer = [CChar](repeating: 0, count: 64)
            let status = buffer.withUnsafeMutableBufferPointer { sesame_sockaddr_ip(address, $0.baseAddress, $0.count) }
            guard status == 0 else { return .YES }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return core.connections.admit(address: text) ? .YES : .NO
        }

    /// The access handler: collects the body, then (on a later call, so keep-alive works) answers.
    static let access:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> MHD_Result = { cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
            guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
            let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
            let state: RequestState
            if let existing = conCls.pointee {
                state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
            } else {
                // Not expected (the URI log callback runs first), but keep the same ownership rule.
                let target = url.map { String(cString: $0) } ?? "/"
                state = RequestState(rawTarget: target, core: core)
                conCls.pointee = Unmanaged.passRetained(state).toOpaque()
            }
            return MHDConnection(connection).handle(
                core: core, state: state, method: method.map { String(cString: $0) } ?? "",
                version: version.map { String(cString: $0) } ?? "", uploadData: uploadData,
                uploadDataSize: uploadDataSize)
        }

    /// Collects header fields into an `HTTPHeaders` box.
    static let collectHeader:
        @convention(c) (
            UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int
        ) -> MHD_Result = { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let box = Unmanaged<HeaderBox>.fromOpaque(cls).takeUnretainedValue()
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: max(0, keySize)), as: UTF8.self)
            let text =
                value.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: max(0, valueSize)), as: UTF8.self)
                } ?? ""
            box.headers.add(name: name, value: text)
            return .YES
        }
}

/// A mutable header list reachable through a C `void *` while libmicrohttpd iterates.
final class HeaderBox {
    var headers = HTTPHeaders()
}
