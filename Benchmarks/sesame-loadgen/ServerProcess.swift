import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `sesame serve` process under test: spawned with posix_spawn (through `taskset` when a core
/// is given), observed through /proc/<pid>, stopped with SIGTERM (then SIGKILL).
final class ServerProcess {
    let pid: pid_t
    /// Nanoseconds (CLOCK_MONOTONIC) just before posix_spawn.
    let spawnedAt: UInt64

    /// Spawns `arguments[0]` (looked up in PATH) with stdout and stderr appended to `logPath`.
    init(arguments: [String], logPath: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        spawnedAt = Clock.nanoseconds()
        let result = posix_spawnp(&child, arguments.first ?? "", &actions, nil, argv, environ)
        guard result == 0 else {
            throw LoadError("posix_spawnp \(arguments.first ?? ""): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether the process has exited (reaps it if so).
    var hasExited: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    /// SIGTERM, wait up to `seconds`, then SIGKILL. Returns true if it stopped on SIGTERM.
    @discardableResult
    func stop(seconds: Double = 10) -> Bool {
        kill(pid, SIGTERM)
        let deadline = Clock.nanoseconds() + UInt64(seconds * 1e9)
        var status: Int32 = 0
        while Clock.nanoseconds() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return true }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return false
    }

    /// utime + stime of the whole process (every thread), in seconds, from /proc/<pid>/stat.
    func cpuSeconds() throws -> Double {
        let times = try cpuTimes()
        return times.user + times.system
    }

    /// utime and stime of the whole process, in seconds.
    func cpuTimes() throws -> (user: Double, system: Double) { try Self.cpuTimes(of: pid) }

    /// utime and stime of this process and of its live children (a gunicorn master and its
    /// workers), in seconds, with the children's pids.
    func cpuTimesWithChildren() throws -> (user: Double, system: Double, children: [pid_t]) {
        var (user, system) = try cpuTimes()
        let children = Self.children(of: pid)
        for child in children {
            let times = try Self.cpuTimes(of: child)
            user += times.user
            system += times.system
        }
        return (user, system, children)
    }

    /// The fields of /proc/<pid>/stat after the command name (which is in parentheses and may
    /// hold spaces): element 0 is field 3 (state), 1 the ppid, 11 utime, 12 stime.
    private static func statFields(of pid: pid_t) throws -> [Substring] {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = text.lastIndex(of: ")") else { throw LoadError("cannot parse /proc/\(pid)/stat") }
        return text[text.index(after: close)...].split(separator: " ")
    }

    static func cpuTimes(of pid: pid_t) throws -> (user: Double, system: Double) {
        let fields = try statFields(of: pid)
        guard fields.count > 13, let utime = Double(fields[11]), let stime = Double(fields[12]) else {
            throw LoadError("cannot parse utime/stime in /proc/\(pid)/stat")
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (utime / ticks, stime / ticks)
    }

    /// The pids whose parent is `pid`, from a scan of /proc, sorted.
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var found: [pid_t] = []
        for entry in entries {
            guard let candidate = pid_t(entry), candidate != pid,
                let fields = try? statFields(of: candidate), fields.count > 1, pid_t(fields[1]) == pid
            else { continue }
            found.append(candidate)
        }
        return found.sorted()
    }

    /// A `kB` field of /proc/<pid>/status (VmRSS, VmHWM), in bytes.
    func status(_ field: String) throws -> Int { try Self.status(field, of: pid) }

    static func status(_ field: String, of pid: pid_t) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kilobytes = Int(parts[1]) { return kilobytes * 1024 }
        }
        throw LoadError("no \(field) in /proc/\(pid)/status")
    }

    /// Number of threads (from /proc/<pid>/status).
    func threadCount() -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}

/// Monotonic time.
enum Clock {
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// A fatal problem of the benchmark run (not a missed target).
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
