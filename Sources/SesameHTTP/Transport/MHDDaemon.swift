internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Owns one running `MHD_Daemon` (and the copies of the TLS PEM text it was given) and stops it in `deinit`.
/// `quiesce` and `stop` are called only from `HTTPServer.stop`, which lets one caller through; libmicrohttpd
/// itself is thread-safe for these calls, hence the unchecked conformance.
final class MHDDaemon: @unchecked Sendable {
    private var pointer: OpaquePointer?
    private let core: ServerCore
    private let pemCopies: [UnsafeMutablePointer<CChar>]
    private var watchdog: DeadlineWatchdog?
    /// The listening socket `quiesce` took back from libmicrohttpd: shut down at once (new
    /// connections are refused), closed only in `stop`, after the daemon's threads are joined.
    private var quiescedListener: Int32 = -1
    /// The port actually bound.
    let port: Int

    /// Starts the daemon on `address` (an IPv4/IPv6 literal) and `port` (0 = ephemeral).
    init(core: ServerCore, address: String, port: Int, threads: Int, tls: TLSConfiguration?) throws {
        self.core = core
        let limits = core.limits
        var flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue)
        var copies: [UnsafeMutablePointer<CChar>] = []
        if let tls {
            guard MHD_is_feature_supported(.FEATURE_TLS) == .YES else { throw HTTPServerError.tlsUnsupported }
            flags |= UInt32(MHD_USE_TLS.rawValue)
            for text in [tls.privateKeyPEM, tls.certificatePEM] {
                guard let copy = strdup(text) else { throw HTTPServerError.startFailed("out of memory") }
                copies.append(copy)
            }
        }
        pemCopies = copies

        var socketAddress = try SocketAddress(host: address, port: port)
        if socketAddress.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }

        let cls = Unmanaged.passUnretained(core).toOpaque()
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: limits.connectionMemoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: limits.maxConnections, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: limits.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: limits.connectionsPerIP, ptr_value: nil),
            MHD_OptionItem(
                option: .URI_LOG_CALLBACK, value: unsafeBitCast(MHDCallbacks.uriLog, to: Int.self),
                ptr_value: cls),
            MHD_OptionItem(
                option: .NOTIFY_COMPLETED, value: unsafeBitCast(MHDCallbacks.completed, to: Int.self),
                ptr_value: cls),
            MHD_OptionItem(
                option: .NOTIFY_CONNECTION, value: unsafeBitCast(MHDCallbacks.connectionNotification, to: Int.self),
                ptr_value: cls),
        ]
        // libmicrohttpd reads a pool size of 1 as "no pool"; we simply give no option then.
        if threads > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: threads, ptr_value: nil))
        }
        if copies.count == 2 {
            options.append(
                MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(copies[0])))
            options.append(
                MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(copies[1])))
        }

        errno = 0
        let daemon = socketAddress.withSockaddr { sockaddr -> OpaquePointer? in
            options.append(
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)))
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                sesame_MHD_start_daemon(
                    flags, 0, MHDCallbacks.acceptPolicy, cls, MHDCallbacks.access, cls, buffer.baseAddress)
            }
        }
        guard let daemon else {
            let failure = MicroHTTPDError.start(
                address: address, port: port, reason: MicroHTTPDError.startReason(errno: errno))
            for copy in copies { free(copy) }
            throw HTTPServerError.startFailed(failure.description)
        }
        pointer = daemon
        self.port = Int(sesame_MHD_daemon_bind_port(daemon))
        if core.connections.policy.requestTimeout > 0 { watchdog = DeadlineWatchdog(core: core) }
    }

    /// Stops accepting new connections (existing ones keep being served).
    ///
    /// The socket is shut down, not closed: libmicrohttpd 0.9.75's polling threads remove it from
    /// their epoll sets on their own after the quiesce, and a descriptor closed under them makes
    /// that `epoll_ctl` fail with EBADF, which libmicrohttpd treats as fatal (it aborted a test run).
    func quiesce() {
        guard let pointer, quiescedListener < 0 else { return }
        let listener = MHD_quiesce_daemon(pointer)
        guard listener >= 0 else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        quiescedListener = listener
    }

    /// Stops the daemon: closes every connection and joins its threads. Must not run on a worker thread.
    func stop() {
        watchdog?.stop()
        watchdog = nil
        guard let daemon = pointer else { return }
        pointer = nil
        MHD_stop_daemon(daemon)
        if quiescedListener >= 0 {
            close(quiescedListener)
            quiescedListener = -1
        }
    }

    deinit {
        stop()
        for copy in pemCopies {
            memset(copy, 0, strlen(copy))  // the key was secret
            free(copy)
        }
        withExtendedLifetime(core) {}
    }
}
