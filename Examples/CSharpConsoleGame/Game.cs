// A console "game" in C# on the Unity package's StoreKeeperClient (Engines/Unity/Runtime):
// signs in, lists the coin packs, buys one and shows the wallet the server answered. With
// Mono, against `storekeeper serve --dev`:
//
//   swift build --package-path SDK --product StoreKeeperSDK
//   mcs -out:game.exe Engines/Unity/Runtime/*.cs Examples/CSharpConsoleGame/Game.cs
//   LD_LIBRARY_PATH=SDK/.build/debug mono game.exe http://127.0.0.1:8080 alice "$(storekeeper token --player alice)"
//
// In Unity, the loop below is the MonoBehaviour's Update() calling client.Pump().
using System;
using System.Threading.Tasks;
using StoreKeeper;

public static class Game
{
    public static int Main(string[] args)
    {
        if (args.Length != 3)
        {
            Console.Error.WriteLine("usage: game.exe SERVER_URL PLAYER TOKEN");
            return 2;
        }
        string config = "{\"serverURL\":\"" + args[0] + "\",\"dataDirectory\":\"game-data\",\"store\":\"emulator\"," +
                        "\"emulatorURL\":\"" + args[0] + "\",\"deviceId\":\"console-phone-cs\"}";
        using (var client = new StoreKeeperClient(config))
        {
            client.PurchaseUpdated += later => Console.WriteLine("delivered later: " + later);
            Console.WriteLine("StoreKeeper SDK " + StoreKeeperClient.Version);
            Console.WriteLine("signIn: " + Run(client, client.SignIn(args[1], args[2])));
            Console.WriteLine("start: " + Run(client, client.Start()));
            Console.WriteLine("products: " + Run(client, client.Products("coins100", "coins500")));
            string purchase = Run(client, client.Purchase("coins100"));
            Console.WriteLine("purchase: " + purchase);
            var delivery = JsonMembers.Parse(JsonMembers.Parse(purchase)["purchase"]);
            if (delivery.TryGetValue("delivery", out string receipt))
                Console.WriteLine("wallet: " + JsonMembers.Parse(receipt)["balances"]);
        }
        return 0;
    }

    /// The frames of a game: pump until the task is done.
    private static string Run(StoreKeeperClient client, Task<string> task)
    {
        while (!task.IsCompleted) client.Pump(16);
        return task.Result;
    }
}
