using System;

namespace StoreKeeper
{
    /// <summary>
    /// A refused configuration or a call's error: <see cref="Code"/> is one of the stable
    /// codes storekeeper_sdk.h lists (plus "queue_full" and "client_closed" when a call
    /// could not start).
    /// </summary>
    public sealed class StoreKeeperException : Exception
    {
        /// <summary>The stable code a game can switch on.</summary>
        public string Code { get; }

        /// <summary>Creates an error with its code and message.</summary>
        public StoreKeeperException(string code, string message) : base(code + ": " + message)
        {
            Code = code;
        }
    }
}
