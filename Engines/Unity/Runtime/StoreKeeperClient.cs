using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace StoreKeeper
{
    /// <summary>
    /// StoreKeeper's purchase pipeline for a Unity game: one per app, opened at launch and
    /// disposed at quit. Each method starts a call of storekeeper_sdk.h and returns a task
    /// that completes with the call's <c>result</c> (JSON text, as the header documents
    /// it) or fails with a <see cref="StoreKeeperException"/>. Tasks complete and events are
    /// raised only inside <see cref="Pump"/>, which the game calls from <c>Update()</c>: no
    /// library thread ever runs managed code. Use a client from the main thread.
    /// </summary>
    /// <example><code>
    /// client = new StoreKeeperClient(configJson);
    /// client.PurchaseUpdated += json => ShowPurchase(json);
    /// await client.SignIn(playerId, token);
    /// await client.Start();
    /// string purchase = await client.Purchase("coins100");   // {"status":"delivered",...}
    /// void Update() { client.Pump(); }
    /// </code></example>
    public sealed class StoreKeeperClient : IDisposable
    {
        private IntPtr handle;
        private readonly Dictionary<long, TaskCompletionSource<string>> calls =
            new Dictionary<long, TaskCompletionSource<string>>();

        /// <summary>A purchase settled that no call is answering (delivered at start from
        /// a previous launch, Ask to Buy approved, a promoted purchase): the event's
        /// <c>purchase</c> object (PURCHASE in storekeeper_sdk.h).</summary>
        public event Action<string> PurchaseUpdated;

        /// <summary>Every update nobody asked for: its name and whole JSON text.</summary>
        public event Action<string, string> EventReceived;

        /// <summary>Opens a client (sk_open); throws <see cref="StoreKeeperException"/>
        /// when the configuration is refused.</summary>
        public StoreKeeperClient(string configJson)
        {
            handle = NativeMethods.sk_open(NativeMethods.Utf8(configJson), out IntPtr error);
            if (handle == IntPtr.Zero)
            {
                var fields = JsonMembers.Parse(NativeMethods.Text(error, free: true) ?? "{}");
                throw new StoreKeeperException(Field(fields, "code"), Field(fields, "message"));
            }
        }

        /// <summary>The native library's ABI version.</summary>
        public static string Version => NativeMethods.Text(NativeMethods.sk_version(), free: false);

        /// <summary>The player now signed in and their token for the purchase server.</summary>
        public Task<string> SignIn(string playerId, string token) =>
            Call("signIn", "{\"playerId\":" + JsonMembers.Quote(playerId) + ",\"token\":" + JsonMembers.Quote(token) + "}");

        /// <summary>No player is signed in any more.</summary>
        public Task<string> SignOut() => Call("signOut", "{}");

        /// <summary>Resumes what the journal holds; once, at launch.</summary>
        public Task<string> Start() => Call("start", "{}");

        /// <summary>The store's products with these ids.</summary>
        public Task<string> Products(params string[] productIds)
        {
            var ids = new List<string>();
            foreach (var id in productIds) ids.Add(JsonMembers.Quote(id));
            return Call("products", "{\"productIds\":[" + string.Join(",", ids) + "]}");
        }

        /// <summary>Buys <paramref name="productId"/>; completes once settled (PURCHASE).</summary>
        public Task<string> Purchase(string productId, int quantity = 1) =>
            Call("purchase", "{\"productId\":" + JsonMembers.Quote(productId) + ",\"quantity\":" + quantity + "}");

        /// <summary>"Restore Purchases".</summary>
        public Task<string> Restore() => Call("restore", "{}");

        /// <summary>The player's entitlements: the server's, or the cache.</summary>
        public Task<string> Entitlements(bool refresh = true) =>
            Call("entitlements", refresh ? "{\"refresh\":true}" : "{\"refresh\":false}");

        /// <summary>Orders paid for that the server has not delivered yet.</summary>
        public Task<string> PendingDeliveries() => Call("pendingDeliveries", "{}");

        /// <summary>Sends the purchase-flow log to the server.</summary>
        public Task<string> Events() => Call("events", "{}");

        /// <summary>Any method of storekeeper_sdk.h with its params (a JSON object).</summary>
        public Task<string> Call(string method, string paramsJson)
        {
            var completion = new TaskCompletionSource<string>();
            long id = NativeMethods.sk_call(handle, NativeMethods.Utf8(method), NativeMethods.Utf8(paramsJson));
            if (id > 0) calls[id] = completion;
            else if (id == -1) completion.SetException(new StoreKeeperException("queue_full", "too many events wait: Pump, then call again"));
            else completion.SetException(new StoreKeeperException("client_closed", "the client is closed"));
            return completion.Task;
        }

        /// <summary>
        /// Completes the tasks of answered calls and raises the events that wait, on this
        /// thread; with <paramref name="timeoutMs"/> above 0, first waits up to that long
        /// for one. Returns how many it handled. Call it once a frame.
        /// </summary>
        public int Pump(int timeoutMs = 0)
        {
            int handled = 0;
            IntPtr raw = timeoutMs > 0 ? NativeMethods.sk_wait(handle, timeoutMs) : NativeMethods.sk_poll(handle);
            while (raw != IntPtr.Zero)
            {
                Dispatch(NativeMethods.Text(raw, free: true));
                handled++;
                raw = NativeMethods.sk_poll(handle);
            }
            return handled;
        }

        /// <summary>Closes the client (sk_close): the journal keeps what is unsettled for
        /// the next launch; calls still waiting fail with "client_closed".</summary>
        public void Dispose()
        {
            NativeMethods.sk_close(handle);
            handle = IntPtr.Zero;
            foreach (var completion in calls.Values)
                completion.TrySetException(new StoreKeeperException("client_closed", "the client was closed"));
            calls.Clear();
        }

        private void Dispatch(string json)
        {
            var fields = JsonMembers.Parse(json);
            if (fields.TryGetValue("event", out string name))
            {
                name = JsonMembers.Unquote(name);
                if (name == "purchase" && fields.TryGetValue("purchase", out string purchase)) PurchaseUpdated?.Invoke(purchase);
                EventReceived?.Invoke(name, json);
                return;
            }
            if (!fields.TryGetValue("id", out string idText) || !long.TryParse(idText, out long id)) return;
            if (!calls.TryGetValue(id, out var completion)) return;
            calls.Remove(id);
            if (fields.TryGetValue("error", out string error))
            {
                var errorFields = JsonMembers.Parse(error);
                completion.SetException(new StoreKeeperException(Field(errorFields, "code"), Field(errorFields, "message")));
            }
            else
            {
                completion.SetResult(fields.TryGetValue("result", out string result) ? result : "{}");
            }
        }

        private static string Field(Dictionary<string, string> fields, string name) =>
            fields.TryGetValue(name, out string value) ? JsonMembers.Unquote(value) : "";
    }
}
