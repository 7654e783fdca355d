using System;
using System.Runtime.InteropServices;
using System.Text;

namespace StoreKeeper
{
    /// <summary>
    /// The C functions of storekeeper_sdk.h. On iOS the library is linked into the app
    /// (the XCFramework), so IL2CPP binds them with "__Internal"; elsewhere the dynamic
    /// library is loaded by name (libStoreKeeperSDK.so, StoreKeeperSDK.dll, .dylib).
    /// Strings cross as UTF-8 bytes both ways, whatever the runtime's default marshalling.
    /// </summary>
    internal static class NativeMethods
    {
#if UNITY_IOS && !UNITY_EDITOR
        private const string Library = "__Internal";
#else
        private const string Library = "StoreKeeperSDK";
#endif

        [DllImport(Library)] internal static extern IntPtr sk_version();
        [DllImport(Library)] internal static extern IntPtr sk_open(byte[] configJson, out IntPtr errorJson);
        [DllImport(Library)] internal static extern long sk_call(IntPtr client, byte[] method, byte[] paramsJson);
        [DllImport(Library)] internal static extern IntPtr sk_poll(IntPtr client);
        [DllImport(Library)] internal static extern IntPtr sk_wait(IntPtr client, int timeoutMs);
        [DllImport(Library)] internal static extern void sk_free(IntPtr json);
        [DllImport(Library)] internal static extern void sk_close(IntPtr client);

        /// <summary>The NUL-terminated UTF-8 bytes of <paramref name="text"/>.</summary>
        internal static byte[] Utf8(string text)
        {
            var bytes = new byte[Encoding.UTF8.GetByteCount(text) + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>The UTF-8 text at <paramref name="pointer"/>, or null; frees it with
        /// sk_free when <paramref name="free"/>.</summary>
        internal static string Text(IntPtr pointer, bool free)
        {
            if (pointer == IntPtr.Zero) return null;
            int length = 0;
            while (Marshal.ReadByte(pointer, length) != 0) length++;
            var bytes = new byte[length];
            Marshal.Copy(pointer, bytes, 0, length);
            if (free) sk_free(pointer);
            return Encoding.UTF8.GetString(bytes);
        }
    }
}
