import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The C ABI, as `include/storekeeper_sdk.h` declares and documents it. Each function only
// checks its arguments, finds the client and hands over to ``SDKClient``; none calls into
// the host, and each may be called from any thread. On Linux, `sk_poll`, `sk_wait` and
// `sk_close` called on the main thread also serve the main dispatch queue (``MainQueuePump``).

/// The ABI's version, `MAJOR.MINOR.PATCH`: a static string, never freed.
@_cdecl("sk_version")
public func skVersion() -> UnsafePointer<CChar> {
    let version: StaticString = "1.0.0"
    return UnsafeRawPointer(version.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Opens a client; NULL with `*error_json` (when `error_json` is not NULL) on failure.
@_cdecl("sk_open")
public func skOpen(
    _ configJSON: UnsafePointer<CChar>?, _ errorJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
    errorJSON?.pointee = nil
    do {
        guard let configJSON else { throw ABIError.invalidArgument("config_json is NULL") }
        guard let text = String(validatingCString: configJSON) else { throw ABIError.invalidUTF8("config_json") }
        let configuration: ClientConfiguration
        do {
            configuration = try ABIJSON.decode(ClientConfiguration.self, from: Data(text.utf8))
        } catch {
            throw ABIError(code: "invalid_config", message: ABIError(error).message)
        }
        return ClientRegistry.shared.add(try SDKClient(configuration: configuration))
    } catch {
        errorJSON?.pointee = strdup(ABIJSON.text(ABIError(error)))
        return nil
    }
}

/// Starts a call; returns its id (> 0), whose answer comes as an event. 0: the client is
/// NULL or closed; -1: the event queue is full (poll first).
@_cdecl("sk_call")
public func skCall(_ handle: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ paramsJSON: UnsafePointer<CChar>?)
    -> Int64
{
    guard let client = ClientRegistry.shared.client(handle) else { return 0 }
    guard let id = client.queue.reserve() else { return -1 }
    do {
        guard let method else { throw ABIError.invalidArgument("method is NULL") }
        guard let name = String(validatingCString: method) else { throw ABIError.invalidUTF8("method") }
        var params = Data("{}".utf8)
        if let paramsJSON {
            guard let text = String(validatingCString: paramsJSON) else { throw ABIError.invalidUTF8("params_json") }
            params = Data(text.utf8)
        }
        do {
            _ = try ABIJSON.decode(CallParameters.None.self, from: params)
        } catch {
            throw ABIError.invalidJSON("params_json")
        }
        client.call(id: id, method: name, params: params)
    } catch {
        client.queue.answer(ABIJSON.text(ABIJSON.Failure(id: id, error: ABIError(error))))
    }
    return id
}

/// The oldest waiting event (free it with `sk_free`), or NULL when none waits.
@_cdecl("sk_poll")
public func skPoll(_ handle: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let queue = ClientRegistry.shared.client(handle)?.queue,
        let event = MainQueuePump.take(from: queue, timeout: 0)
    else { return nil }
    return strdup(event)
}

/// As `sk_poll`, waiting up to `timeout_ms` milliseconds (negative: 0) for an event.
@_cdecl("sk_wait")
public func skWait(_ handle: OpaquePointer?, _ timeoutMilliseconds: Int32) -> UnsafeMutablePointer<CChar>? {
    let timeout = TimeInterval(max(0, timeoutMilliseconds)) / 1_000
    guard let queue = ClientRegistry.shared.client(handle)?.queue,
        let event = MainQueuePump.take(from: queue, timeout: timeout)
    else { return nil }
    return strdup(event)
}

/// Frees a string the library returned; NULL is ignored.
@_cdecl("sk_free")
public func skFree(_ json: UnsafeMutablePointer<CChar>?) {
    free(json)
}

/// Closes a client: stops its pipeline (the journal keeps what is unsettled), wakes every
/// `sk_wait` on it, drops its events. NULL and closed clients are ignored.
@_cdecl("sk_close")
public func skClose(_ handle: OpaquePointer?) {
    guard let client = ClientRegistry.shared.remove(handle) else { return }
    let done = DispatchSemaphore(value: 0)
    Task {
        await client.close()
        done.signal()
    }
    MainQueuePump.wait(for: done)
}
