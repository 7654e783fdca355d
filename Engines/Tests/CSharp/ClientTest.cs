// StoreKeeperClient (Engines/Unity/Runtime) under Mono against libStoreKeeperSDK.so and
// `storekeeper serve --dev`: tasks and events complete only inside Pump() on this thread,
// a coins purchase reaches the server's wallet, refused configurations and bad calls fail
// with their codes. Run by Scripts/engines/run.py (SK_SERVER_URL, SK_WORK_DIR,
// STOREKEEPER_BINARY, LD_LIBRARY_PATH).
using System;
using System.Diagnostics;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using StoreKeeper;

public static class ClientTest
{
    private static int failures;

    private static void Check(bool condition, string what)
    {
        if (condition) return;
        failures++;
        Console.Error.WriteLine("FAIL " + what);
    }

    private static string Env(string name)
    {
        string value = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(value))
        {
            Console.Error.WriteLine(name + " is not set (run Scripts/engines/run.py)");
            Environment.Exit(2);
        }
        return value;
    }

    private static string Config(string name)
    {
        string url = Env("SK_SERVER_URL");
        string device = "cs-" + name + "-" + Process.GetCurrentProcess().Id;
        return "{\"serverURL\":\"" + url + "\",\"dataDirectory\":\"" + Env("SK_WORK_DIR") + "/" + device +
               "\",\"store\":\"emulator\",\"emulatorURL\":\"" + url + "\",\"deviceId\":\"" + device + "\"}";
    }

    /// Pumps until the task completes (60 s at most); its result, or null when it failed.
    private static T Await<T>(StoreKeeperClient client, Task<T> task)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (!task.IsCompleted && DateTime.UtcNow < deadline) client.Pump(100);
        Check(task.IsCompleted, "a task completed within 60 s");
        return task.Status == TaskStatus.RanToCompletion ? task.Result : default(T);
    }

    private static string ErrorCode(Task task)
    {
        var error = task.Exception?.InnerException as StoreKeeperException;
        return error?.Code;
    }

    private static string Token(string player)
    {
        var start = new ProcessStartInfo(Env("STOREKEEPER_BINARY"), "token --player " + player)
        {
            RedirectStandardOutput = true, UseShellExecute = false,
        };
        using (var process = Process.Start(start))
        {
            string token = process.StandardOutput.ReadToEnd().Trim();
            process.WaitForExit();
            return token;
        }
    }

    public static int Main()
    {
        Check(StoreKeeperClient.Version == "1.0.0", "version " + StoreKeeperClient.Version);
        try
        {
            new StoreKeeperClient("{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/tmp/sk\"}");
            Check(false, "storekit2 opened");
        }
        catch (StoreKeeperException error)
        {
            Check(error.Code == "store_unavailable", "storekit2 refused with " + error.Code);
        }

        int mainThread = Thread.CurrentThread.ManagedThreadId;
        using (var client = new StoreKeeperClient(Config("main")))
        {
            string player = "cs-player-" + Process.GetCurrentProcess().Id;
            string token = Token(player);

            var signIn = client.SignIn(player, token);
            Check(!signIn.IsCompleted, "a task completes only in Pump()");
            bool continuedOnMain = false;
            signIn.ContinueWith(_ => continuedOnMain = Thread.CurrentThread.ManagedThreadId == mainThread,
                                TaskContinuationOptions.ExecuteSynchronously);
            Check((Await(client, signIn) ?? "").Contains(player), "signIn");
            Check(continuedOnMain, "the task completed on the pumping thread");

            Check(Await(client, client.Start()) != null, "start");
            string products = Await(client, client.Products("coins100", "potion"));
            Check(products != null && products.Contains("\"potion\"") && products.Contains("\"coins100\""), "products: " + products);

            string purchase = Await(client, client.Purchase("coins100"));
            var fields = JsonMembers.Parse(purchase ?? "{}");
            Check(fields.ContainsKey("status") && JsonMembers.Unquote(fields["status"]) == "delivered", "purchase: " + purchase);
            Check(fields.ContainsKey("transactionId") && fields.ContainsKey("orderId"), "names transaction and order");

            var web = new WebClient();
            web.Headers.Add("Authorization", "Bearer " + token);
            string wallet = web.DownloadString(Env("SK_SERVER_URL") + "/v1/players/me/wallet");
            Check(wallet.Contains("\"coins\":100"), "the server's wallet: " + wallet);

            var unknown = client.Call("fly", "{}");
            Await(client, unknown);
            Check(ErrorCode(unknown) == "unknown_method", "unknown method: " + ErrorCode(unknown));

            var badParams = client.Call("purchase", "[]");
            Await(client, badParams);
            Check(ErrorCode(badParams) == "invalid_json", "array params: " + ErrorCode(badParams));

            var missing = client.Call("purchase", "{}");
            Await(client, missing);
            Check(ErrorCode(missing) == "invalid_params", "missing productId: " + ErrorCode(missing));

            string quoted = Await(client, client.Products("é\"\\\n"));
            Check(quoted == "{\"products\":[]}", "escaped parameters: " + quoted);

            var pending = client.PendingDeliveries();
            client.Dispose();
            Check(ErrorCode(pending) == "client_closed", "Dispose fails the waiting calls: " + ErrorCode(pending));
            var afterDispose = client.Start();
            Check(ErrorCode(afterDispose) == "client_closed", "a call after Dispose: " + ErrorCode(afterDispose));
        }

        if (failures > 0)
        {
            Console.Error.WriteLine("ClientTest: " + failures + " failure(s)");
            return 1;
        }
        Console.WriteLine("ClientTest: all passed");
        return 0;
    }
}
