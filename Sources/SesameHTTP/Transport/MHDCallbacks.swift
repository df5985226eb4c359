import CMicroHTTPD

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

    /// Called when a request ends (answered, failed, or the client went away): frees its state.
    static let completed:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            MHD_RequestTerminationCode
        ) -> Void = { _, _, conCls, _ in
            guard let conCls, let state = conCls.pointee else { return }
            Unmanaged<RequestState>.fromOpaque(state).release()
            conCls.pointee = nil
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
