#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which bounds the
/// connections a server can hold (`serve` raises it to fit ``LoadSettings/maximumConnections``).
public enum DescriptorLimit {
    /// Raises the soft limit to `wanted`, or as near as the hard limit allows, and returns
    /// the soft limit then in force (unchanged when it already allows `wanted`, or when
    /// the limit cannot be read).
    public static func raise(toAtLeast wanted: Int) -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        let current = Int(clamping: limit.rlim_cur)
        guard current < wanted else { return current }
        var raised = limit
        raised.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        guard setrlimit(resource, &raised) == 0 else { return current }
        return Int(clamping: raised.rlim_cur)
    }
}
